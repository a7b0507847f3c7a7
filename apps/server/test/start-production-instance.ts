import { join } from 'node:path'
import { repoRoot } from '@quicklinks/runtime/env'
import { type RunningEntryPoint, startEntryPoint } from '@quicklinks/runtime/test/start-entry-point'
import { getDevnetRelayerPrivateKey, type PaymentDevnet } from './payment-test-kit.ts'

const mainPath = join(repoRoot, 'apps', 'server', 'src', 'main.ts')

/** What every instance of one deployment shares: the chains, the database, Redis. */
export type ProductionDeployment = {
  devnet: PaymentDevnet
  postgresUrl: string
  redisUrl: string
  /** Each instance keeps its local files in `${dataDir}/${name}`. */
  dataDir: string
}

/**
 * One app server (src/main.ts) as `npm run serve` runs it (PRODUCTION=true, so every setting a
 * deployment needs is given) on the deployment's Postgres, Redis and devnet chains, with the
 * devnet's relayer key, behind one proxy hop (TRUST_PROXY=1). `env` adds or overrides variables.
 */
export function startProductionInstance(
  deployment: ProductionDeployment,
  options: { name: string; port: number; publicOrigin: string; env?: Record<string, string> },
): RunningEntryPoint {
  const rpcUrls = Object.fromEntries(
    deployment.devnet.deployment.chains.map((chain) => [`RPC_URL_${chain.chainId}`, chain.rpcUrl]),
  )
  return startEntryPoint(mainPath, {
    PRODUCTION: 'true',
    PORT: String(options.port),
    FRAMES_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: join(deployment.dataDir, options.name),
    DATABASE_URL: deployment.postgresUrl,
    REDIS_URL: deployment.redisUrl,
    PUBLIC_ORIGIN: options.publicOrigin,
    FRAMES_ORIGIN: 'http://127.0.0.1:1',
    SMTP_URL: 'smtp://127.0.0.1:1',
    SIGNER_MASTER_KEY: '7a'.repeat(32),
    ...rpcUrls,
    ROUTING_PROVIDER: 'local',
    DEVNET_DEPLOYMENT_FILE: deployment.devnet.deploymentFile,
    RELAYER_PRIVATE_KEY: getDevnetRelayerPrivateKey(),
    CONFIRMATIONS_DEFAULT: '0',
    WORKER_INTERVAL_MS: '250',
    TRUST_PROXY: '1',
    LOG_LEVEL: 'info',
    ...options.env,
  })
}
