// The signer service on its own (npm run signer -w apps/server): the same database and
// configuration as the app server, only GET /health and /signer/v1, on SIGNER_PORT.
// The default set-up mounts the signer in the app server instead (docs/decisions/0006).
import { buildSignerApp } from './build-signer-app.ts'
import { createLogger } from './create-logger.ts'
import { createDatabaseClient } from './db/create-database-client.ts'
import { getDatabaseTarget } from './db/get-database-target.ts'
import { migrate } from './db/migrate.ts'
import { parseEnv, type ServerConfig } from './env.ts'

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
} catch (error) {
  logger.fatal({ err: error }, 'Database migration failed')
  await database.close()
  process.exit(1)
}

const app = await buildSignerApp(config, { database, logger }).catch(async (error: unknown) => {
  logger.fatal({ err: error }, 'The signer could not start')
  await database.close()
  process.exit(1)
})
try {
  await app.listen({
    port: config.signerPort,
    host: config.host,
    listenTextResolver: (address) => `Signer listening on ${address}`,
  })
} catch (error) {
  logger.fatal({ err: error }, `Cannot listen on ${config.host}:${config.signerPort}`)
  await app.close()
  await database.close()
  process.exit(1)
}

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
    await app.close()
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
