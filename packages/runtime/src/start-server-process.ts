// Start-up and shut-down shared by the two entry points (apps/server/src/main.ts, apps/signer/src/main.ts).
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { createLogger } from './create-logger.ts'
import { createDatabaseClient, type DatabaseClient } from './db/create-database-client.ts'
import { getDatabaseTarget } from './db/get-database-target.ts'
import { type ConnectionDrain, trackConnections } from './drain-connections.ts'
import type { HostConfig } from './env.ts'

const shutdownTimeoutMs = 10_000

/** Something the process opened and must close before it exits. */
type Closeable = { close(): Promise<unknown> }

/** A started process: its config, logger and migrated database, and what closes with it. */
export type ServerProcess<Config extends HostConfig = HostConfig> = {
  config: Config
  logger: Logger
  database: DatabaseClient
  /** Closes `resource` when the process exits, before everything added earlier. */
  closeOnExit(resource: Closeable): void
  /** Logs `error` as fatal with `message`, closes everything (newest first) and exits 1. */
  exitWithFailure(error: unknown, message: string): Promise<never>
  /**
   * Listens on `port` and the configured host, logging "`name` listening on …"; on failure exits
   * as `exitWithFailure` does, naming the port's variable (`portVariable`) when given.
   */
  listenOrExit(
    server: FastifyInstance,
    options: { port: number; name: string; portVariable?: string },
  ): Promise<void>
  /**
   * On SIGINT or SIGTERM: stops taking requests (new ones get 503, the listeners close), lets the
   * ones in flight finish, closes everything (newest first) and exits 0. Exits 1 after 10 s, on an
   * error, or at once on a second signal.
   */
  closeOnSignals(): void
}

export type StartServerProcessOptions<Config extends HostConfig> = {
  /**
   * Parses the sections of the environment this process owns (the host's and its app's:
   * docs/decisions/0023), throwing an Error that names every invalid variable.
   */
  parseEnv(): Config
  /** Applies the process's pending migrations (the app server's and the signer's, or the signer's). */
  migrate(client: DatabaseClient): Promise<void>
}

/**
 * Parses the environment with `options.parseEnv`, opens the database and migrates it with `options.migrate`: the start
 * every server process shares. Never rejects: a bad environment prints the message and exits 1; a
 * database that does not open or migrate is logged as fatal and exits 1 (closing the database if it
 * opened).
 */
export async function startServerProcess<Config extends HostConfig>(
  options: StartServerProcessOptions<Config>,
): Promise<ServerProcess<Config>> {
  let config: Config
  try {
    config = options.parseEnv()
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

  // Oldest first; closed in reverse, so a server closes before the database it uses.
  const opened: Closeable[] = [database]
  const closing = new Map<Closeable, Promise<unknown>>()
  const closeOnce = (resource: Closeable): Promise<unknown> => {
    let closed = closing.get(resource)
    if (closed === undefined) {
      closed = resource.close()
      closing.set(resource, closed)
    }
    return closed
  }
  const closeAll = async () => {
    for (const resource of [...opened].reverse()) await closeOnce(resource)
  }
  const exitWithFailure = async (error: unknown, message: string): Promise<never> => {
    logger.fatal({ err: error }, message)
    await closeAll()
    process.exit(1)
  }

  try {
    await options.migrate(database)
    logger.info({ database: target.kind }, 'Database migrated')
  } catch (error) {
    await exitWithFailure(error, 'Database migration failed')
  }

  // The listening servers' connections, drained on shutdown so every request gets an answer.
  const drains: ConnectionDrain[] = []
  const listening: FastifyInstance[] = []
  let isClosing = false
  const shutDown = async (signal: NodeJS.Signals): Promise<void> => {
    if (isClosing) {
      logger.warn({ signal }, 'Second signal; exiting now')
      process.exit(1)
    }
    isClosing = true
    logger.info({ signal }, 'Shutting down')
    const forceExit = setTimeout(() => {
      logger.error('Shutdown took too long; exiting')
      process.exit(1)
    }, shutdownTimeoutMs)
    forceExit.unref()
    for (const connections of drains) connections.drain()
    try {
      // Every listener starts closing at once, so from now on new requests (/ready too) get 503.
      await Promise.all(listening.map(closeOnce))
      await closeAll()
      process.exit(0)
    } catch (error) {
      logger.error({ err: error }, 'Shutdown failed')
      process.exit(1)
    }
  }

  return {
    config,
    logger,
    database,
    closeOnExit: (resource) => {
      opened.push(resource)
    },
    exitWithFailure,
    listenOrExit: async (server, { port, name, portVariable }) => {
      drains.push(trackConnections(server.server))
      listening.push(server)
      try {
        await server.listen({
          port,
          host: config.host,
          listenTextResolver: (address) => `${name} listening on ${address}`,
        })
      } catch (error) {
        const hint = portVariable === undefined ? '' : ` (${portVariable})`
        await exitWithFailure(error, `Cannot listen on ${config.host}:${port}${hint}`)
      }
    },
    closeOnSignals: () => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        process.on(signal, () => void shutDown(signal))
      }
    },
  }
}
