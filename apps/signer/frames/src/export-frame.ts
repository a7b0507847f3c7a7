// The export frame's page: builds each export to a key of its own (stamped by the auth frame over
// the frames channel), opens the bundle and shows the secret here only.
import './export-frame.css'
import { framesChannelName } from './frames-channel-messages.ts'
import { createExportRequestHandler } from './handle-export-request.ts'
import { listenToParent } from './listen-to-parent.ts'
import { readFrameConfig } from './read-frame-config.ts'
import { renderExportedSecret } from './render-exported-secret.ts'
import { requestFramesStamp } from './request-frames-stamp.ts'

// The app passes its theme (?theme=light|dark) so the frame matches it; else the OS preference.
const theme = new URLSearchParams(window.location.search).get('theme')
if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme

const config = readFrameConfig(document)
const root = document.getElementById('export-root')
if (config === undefined || root === null) {
  console.error('Quick Links export frame: no configuration; serve it through the frames server.')
} else {
  const channel = new BroadcastChannel(framesChannelName)
  listenToParent({
    window,
    parentOrigin: config.parentOrigin,
    handle: createExportRequestHandler({
      pinnedSignerPublicKey: config.exportSignerPublicKey,
      show: (secret) => renderExportedSecret(root, secret),
      stampExportBody: (body) => requestFramesStamp({ channel, body }),
    }),
  })
}
