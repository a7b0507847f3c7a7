import type { DevMail } from '@quicklinks/core/dev-outbox'
import { createDevOutbox } from '@quicklinks/runtime/delivery/create-dev-outbox'
import { getTrustProxyOption } from '@quicklinks/runtime/get-trust-proxy-option'
import { startServerProcess } from '@quicklinks/runtime/start-server-process'
import { readExportSignerPublicKey } from '@quicklinks/signer/api/read-export-signer-public-key'
import { buildFramesServer } from '@quicklinks/signer/frames-server/build-frames-server'
// The app server process: parse the environment, migrate, listen; close cleanly on SIGINT/SIGTERM.
import { buildApp } from './app.ts'
import { parseServerEnv } from './config/server-env.ts'
import { migrate } from './db/migrate.ts'
import { startMailCatcher } from './services/delivery/start-mail-catcher.ts'

const serverProcess = await startServerProcess({ parseEnv: parseServerEnv, migrate })
const { config, logger, database } = serverProcess

// Dev mode catches all mail on loopback (config.smtpUrl points at it unless SMTP_URL says otherwise).
const mailOutbox = createDevOutbox<DevMail>()
if (config.devMode) {
  try {
    const mailCatcher = await startMailCatcher({
      host: '127.0.0.1',
      port: config.smtpPort,
      outbox: mailOutbox,
      logger,
    })
    serverProcess.closeOnExit(mailCatcher)
    logger.info({ port: mailCatcher.port }, 'Dev mail catcher listening; read the mail at /dev/mail')
  } catch (error) {
    await serverProcess.exitWithFailure(
      error,
      `Cannot start the dev mail catcher on 127.0.0.1:${config.smtpPort}; set SMTP_PORT to a free port`,
    )
  }
}

// The payment tracker and the relayer run in this process (docs/decisions/0009).
const app = await buildApp(config, { database, logger, mailOutbox, startWorkers: true })
serverProcess.closeOnExit(app)
await serverProcess.listenOrExit(app, { port: config.port, name: 'Server' })

// The signer frames origin: a second listener, so the frames run on an origin the app page cannot script.
const frames = await buildFramesServer(
  {
    publicOrigin: config.publicOrigin,
    trustProxy: getTrustProxyOption(config.trustProxy),
    ...(config.httpTimeouts === undefined ? {} : { httpTimeouts: config.httpTimeouts }),
  },
  { logger, getExportSignerPublicKey: () => readExportSignerPublicKey(app.db) },
)
serverProcess.closeOnExit(frames)
await serverProcess.listenOrExit(frames, {
  port: config.framesPort,
  name: 'Signer frames',
  portVariable: 'FRAMES_PORT',
})
logger.info(
  { publicOrigin: config.publicOrigin, framesOrigin: config.framesOrigin, devMode: config.devMode },
  'Server ready',
)

serverProcess.closeOnSignals()
