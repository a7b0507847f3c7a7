// The server's routing section of the environment (docs/decisions/0023): who builds routes
// (the devnet's local provider or Squid), the chains' RPCs, the relayer's key, and how the
// tracker and the relayer poll and how deep a block must be before they act on it.

import { resolve } from 'node:path'
import { dataDirSchema, resolveFromRoot } from '@quicklinks/runtime/env'
import {
  type EnvProblem,
  hexPrivateKeySchema,
  hostModeShape,
  isHttpUrl,
  readChainSettings,
  reportEnvProblems,
} from '@quicklinks/runtime/env/setting-schemas'
import { z } from 'zod'

/** DEVNET_DEPLOYMENT_FILE: the contracts' deployment; sections that fall back on it read it too. */
export const devnetDeploymentFileSchema = z.string().min(1).optional()

/** The routing variables, then what each becomes in `RoutingEnvConfig`. */
export const routingEnvSchema = z
  .looseObject({
    ...hostModeShape,
    DATA_DIR: dataDirSchema,
    DEVNET_DEPLOYMENT_FILE: devnetDeploymentFileSchema,
    ROUTING_PROVIDER: z.enum(['local', 'squid']).default('local'),
    SQUID_API_URL: z.url({ protocol: /^https?$/ }).default('https://v2.api.squidrouter.com'),
    SQUID_INTEGRATOR_ID: z.string().min(1).optional(),
    RELAYER_PRIVATE_KEY: hexPrivateKeySchema.optional(),
    DEPOSIT_OPERATOR_PRIVATE_KEY: hexPrivateKeySchema.optional(),
    WORKER_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
    WORKER_IDLE_INTERVAL_MS: z.coerce.number().int().min(50).max(300_000).optional(),
    CONFIRMATIONS_DEFAULT: z.coerce.number().int().min(0).max(1000).optional(),
  })
  .transform((env, context) => {
    const problems: EnvProblem[] = []
    const rpcUrls = readChainSettings(
      env,
      'RPC_URL',
      { isValid: isHttpUrl, message: 'must be an http(s) URL' },
      problems,
    )
    const confirmations = readConfirmations(env, problems)
    if (env.ROUTING_PROVIDER === 'squid' && !env.SQUID_INTEGRATOR_ID) {
      problems.push(['SQUID_INTEGRATOR_ID', 'required when ROUTING_PROVIDER=squid'])
    }
    if (env.PRODUCTION && Object.keys(rpcUrls).length === 0) {
      problems.push([
        'RPC_URL_<chainId>',
        'required in production, one per chain payments land on (e.g. RPC_URL_8453=https://…); there is no devnet to fall back to',
      ])
    }
    if (env.PRODUCTION && env.ROUTING_PROVIDER === 'local' && env.DEVNET_DEPLOYMENT_FILE === undefined) {
      problems.push([
        'DEVNET_DEPLOYMENT_FILE',
        'ROUTING_PROVIDER=local needs the deployment of its contracts on your chains; use ROUTING_PROVIDER=squid otherwise',
      ])
    }
    if (problems.length > 0) return reportEnvProblems(context, problems)
    return {
      /** The devnet deployment (contracts, chains, RPCs): DEVNET_DEPLOYMENT_FILE, else `${DATA_DIR}/devnet/deployment.json`. */
      devnetDeploymentFile: env.DEVNET_DEPLOYMENT_FILE
        ? resolveFromRoot(env.DEVNET_DEPLOYMENT_FILE)
        : resolve(resolveFromRoot(env.DATA_DIR), 'devnet', 'deployment.json'),
      /** Who lists chains and tokens and builds routes: 'local' (the devnet) or 'squid'; the web calls /api/{routingProvider}/… */
      routingProvider: env.ROUTING_PROVIDER,
      /** Squid's API base (SQUID_API_URL), so a recorded-response server on loopback can stand in. */
      squidApiUrl: env.SQUID_API_URL.replace(/\/+$/, ''),
      /** Squid's x-integrator-id; required when routingProvider is 'squid'. */
      squidIntegratorId: env.SQUID_INTEGRATOR_ID,
      /**
       * JSON-RPC endpoint per chain id, from RPC_URL_<chainId> variables (production, and what
       * `npm start` passes for the devnet). The local provider falls back to the devnet deployment's.
       */
      rpcUrls,
      /**
       * The local provider's relayer key (RELAYER_PRIVATE_KEY). In dev mode without it, the devnet's
       * relayer account (test mnemonic index 9) is used; otherwise cross-chain routes answer 503.
       */
      relayerPrivateKey: env.RELAYER_PRIVATE_KEY,
      /**
       * The deposit operator's key (DEPOSIT_OPERATOR_PRIVATE_KEY): deploys deposit forwarders and
       * forwards or refunds what they hold (docs/decisions/0030). In dev mode without it, the devnet's
       * deposit operator (test mnemonic index 13); otherwise deposits answer 503.
       */
      depositOperatorPrivateKey: env.DEPOSIT_OPERATOR_PRIVATE_KEY,
      /** How often the tracker and relayer workers poll, in milliseconds (WORKER_INTERVAL_MS). */
      workerIntervalMs: env.WORKER_INTERVAL_MS,
      /**
       * The longest sleep of a worker lane whose rounds keep finding nothing
       * (WORKER_IDLE_INTERVAL_MS); unset: four intervals, at most 5 s (docs/decisions/0035).
       */
      workerIdleIntervalMs: env.WORKER_IDLE_INTERVAL_MS,
      /**
       * Blocks that must sit on top of a block before the relayer acts on it and the tracker calls a
       * payment final, per chain id (CONFIRMATIONS_<chainId>); see getConfirmations.
       */
      confirmations,
      /** Depth for chains without their own (CONFIRMATIONS_DEFAULT): 0 in dev mode, else 2. */
      defaultConfirmations: env.CONFIRMATIONS_DEFAULT ?? (env.DEV_MODE ? 0 : 2),
    }
  })

/** The server's routing settings, from its routing section of the environment. */
export type RoutingEnvConfig = z.output<typeof routingEnvSchema>

/** CONFIRMATIONS_<chainId>=<blocks> variables; names any that is not a whole number 0-1000. */
function readConfirmations(
  env: Readonly<Record<string, unknown>>,
  problems: EnvProblem[],
): Record<number, number> {
  const depths = readChainSettings(
    env,
    'CONFIRMATIONS',
    {
      isValid: (value) => /^\d+$/.test(value) && Number(value) <= 1000,
      message: 'must be a whole number of blocks, 0 to 1000',
    },
    problems,
  )
  return Object.fromEntries(Object.entries(depths).map(([chainId, depth]) => [chainId, Number(depth)]))
}

/** The confirmation depth of a chain: CONFIRMATIONS_<chainId>, else the default. */
export function getConfirmations(
  config: Pick<RoutingEnvConfig, 'confirmations' | 'defaultConfirmations'>,
  chainId: number,
): number {
  return config.confirmations[chainId] ?? config.defaultConfirmations
}
