// The app server process: parse the environment, migrate, listen; close cleanly on SIGINT/SIGTERM.
import { buildApp } from './app.ts'
import { createLogger } from './create-logger.ts'
import { createDatabaseClient } from './db/create-database-client.ts'
import { getDatabaseTarget } from './db/get-database-target.ts'
import { migrate } from './db/migrate.ts'
import { parseEnv, type ServerConfig } from './env.ts'
import { buildFramesServer } from './frames/build-frames-server.ts'
import { readExportSignerPublicKey } from './frames/read-export-signer-public-key.ts'
import { createDevOutbox } from './services/delivery/create-dev-outbox.ts'
import {
  type CaughtMail,
  type MailCatcher,
  startMailCatcher,
} from './services/delivery/start-mail-catcher.ts'

const shutdownTimeoutMs = 10_000

let config: ServerConfig
try {
  config = parseEnv()
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}

const logger = createLogger(config.logLevel)
const target = getDatabaseTarget(config)
const database = await createDatabaseClient(target, {
  onPoolError: (error) => logger.error({ err: error }, 'Idle database connection failed'),
}).catch((error: unknown) => {
  logger.fatal({ err: error }, `Cannot open the database (${target.kind})`)
  process.exit(1)
})

try {
  await migrate(database)
  logger.info({ database: target.kind }, 'Database migrated')
} catch (error) {
  logger.fatal({ err: error }, 'Database migration failed')
  await database.close()
  process.exit(1)
}

// Dev mode catches all mail on loopback (config.smtpUrl points at it unless SMTP_URL says otherwise).
const mailOutbox = createDevOutbox<CaughtMail>()
let mailCatcher: MailCatcher | undefined
if (config.devMode) {
  try {
    mailCatcher = await startMailCatcher({
      host: '127.0.0.1',
      port: config.smtpPort,
      outbox: mailOutbox,
      logger,
    })
    logger.info({ port: mailCatcher.port }, 'Dev mail catcher listening; read the mail at /dev/mail')
  } catch (error) {
    logger.fatal(
      { err: error },
      `Cannot start the dev mail catcher on 127.0.0.1:${config.smtpPort}; set SMTP_PORT to a free port`,
    )
    await database.close()
    process.exit(1)
  }
}

const app = await buildApp(config, { database, logger, mailOutbox })
try {
  await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: (address) => `Server listening on ${address}`,
  })
} catch (error) {
  logger.fatal({ err: error }, `Cannot listen on ${config.host}:${config.port}`)
  await app.close()
  await mailCatcher?.close()
  await database.close()
  process.exit(1)
}

// The signer frames origin: a second listener, so the frames run on an origin the app page cannot script.
const frames = await buildFramesServer(config, {
  logger,
  getExportSignerPublicKey: () => readExportSignerPublicKey(app.db),
})
try {
  await frames.listen({
    port: config.framesPort,
    host: config.host,
    listenTextResolver: (address) => `Signer frames listening on ${address}`,
  })
} catch (error) {
  logger.fatal({ err: error }, `Cannot listen on ${config.host}:${config.framesPort} (FRAMES_PORT)`)
  await frames.close()
  await app.close()
  await mailCatcher?.close()
  await database.close()
  process.exit(1)
}
logger.info(
  { publicOrigin: config.publicOrigin, framesOrigin: config.framesOrigin, devMode: config.devMode },
  'Server ready',
)

let isClosing = false
async function shutDown(signal: NodeJS.Signals): Promise<void> {
  if (isClosing) return
  isClosing = true
  logger.info({ signal }, 'Shutting down')
  const forceExit = setTimeout(() => {
    logger.error('Shutdown took too long; exiting')
    process.exit(1)
  }, shutdownTimeoutMs)
  forceExit.unref()
  try {
    await frames.close()
    await app.close()
    await mailCatcher?.close()
    await database.close()
    process.exit(0)
  } catch (error) {
    logger.error({ err: error }, 'Shutdown failed')
    process.exit(1)
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void shutDown(signal))
}
