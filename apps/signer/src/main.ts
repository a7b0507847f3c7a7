// The signer service on its own (npm run signer -w apps/signer): the same database and
// configuration as the app server, only GET /health and /signer/v1, on SIGNER_PORT. It migrates
// only the signer's own tables (docs/decisions/0016) and parses only the host's and the signer's
// sections of the environment (docs/decisions/0023).
// The default set-up mounts the signer in the app server instead (docs/decisions/0006).

import { startServerProcess } from '@quicklinks/runtime/start-server-process'
import { buildSignerApp } from './build-signer-app.ts'
import { parseSignerEnv } from './config/signer-env.ts'
import { migrateSignerDatabase } from './db/migrate-signer-database.ts'

const serverProcess = await startServerProcess({ parseEnv: parseSignerEnv, migrate: migrateSignerDatabase })
const { config, logger, database } = serverProcess

const app = await buildSignerApp(config, { database, logger }).catch((error: unknown) =>
  serverProcess.exitWithFailure(error, 'The signer could not start'),
)
serverProcess.closeOnExit(app)
await serverProcess.listenOrExit(app, { port: config.signerPort, name: 'Signer' })
serverProcess.closeOnSignals()
