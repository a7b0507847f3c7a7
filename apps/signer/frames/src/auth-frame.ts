// The auth frame's page: keys in IndexedDB, answers only the configured app origin.
import { createIndexedDbKeyStore } from './auth-key-store.ts'
import { createAuthRequestHandler } from './handle-auth-request.ts'
import { listenToParent } from './listen-to-parent.ts'
import { readFrameConfig } from './read-frame-config.ts'

const config = readFrameConfig(document)
if (config === undefined) {
  console.error('Quick Links auth frame: no configuration; serve it through the frames server.')
} else {
  listenToParent({
    window,
    parentOrigin: config.parentOrigin,
    handle: createAuthRequestHandler({ keyStore: createIndexedDbKeyStore() }),
  })
}
