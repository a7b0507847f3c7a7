// The auth frame's page: keys in IndexedDB, answers only the configured app origin, and stamps the
// export frame's export requests over the frames channel.
import { createIndexedDbKeyStore } from './auth-key-store.ts'
import { framesChannelName } from './frames-channel-messages.ts'
import { createAuthRequestHandler, createFramesStampHandler } from './handle-auth-request.ts'
import { listenToFrames } from './listen-to-frames.ts'
import { listenToParent } from './listen-to-parent.ts'
import { readFrameConfig } from './read-frame-config.ts'

const config = readFrameConfig(document)
if (config === undefined) {
  console.error('Quick Links auth frame: no configuration; serve it through the frames server.')
} else {
  const keyStore = createIndexedDbKeyStore()
  listenToParent({
    window,
    parentOrigin: config.parentOrigin,
    handle: createAuthRequestHandler({ keyStore }),
  })
  listenToFrames({
    channel: new BroadcastChannel(framesChannelName),
    handle: createFramesStampHandler({ keyStore }),
  })
}
