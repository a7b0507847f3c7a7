// The export frame's page: opens one export bundle per key and shows the secret here only.
import './export-frame.css'
import { createExportRequestHandler } from './handle-export-request.ts'
import { listenToParent } from './listen-to-parent.ts'
import { readFrameConfig } from './read-frame-config.ts'
import { renderExportedSecret } from './render-exported-secret.ts'

// The app passes its theme (?theme=light|dark) so the frame matches it; else the OS preference.
const theme = new URLSearchParams(window.location.search).get('theme')
if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme

const config = readFrameConfig(document)
const root = document.getElementById('export-root')
if (config === undefined || root === null) {
  console.error('Quick Links export frame: no configuration; serve it through the frames server.')
} else {
  listenToParent({
    window,
    parentOrigin: config.parentOrigin,
    handle: createExportRequestHandler({
      pinnedSignerPublicKey: config.exportSignerPublicKey,
      show: (secret) => renderExportedSecret(root, secret),
    }),
  })
}
