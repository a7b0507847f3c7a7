// The app server's configuration (docs/decisions/0023): the host's section (packages/runtime),
// the signer's (it mounts the signer), and its own — the web build, metrics and WalletConnect
// here, routing, smart accounts and Solana in their files beside this one. Each section is a zod
// schema whose output is its part of the config; `ServerConfig` is their intersection.

import { type HostConfig, hostEnvSchema, resolveFromRoot } from '@quicklinks/runtime/env'
import { parseEnvSections } from '@quicklinks/runtime/env/parse-env-sections'
import { type SignerEnvConfig, signerEnvSchema } from '@quicklinks/signer/config/signer-env'
import { z } from 'zod'
import { type RoutingEnvConfig, routingEnvSchema } from './routing-env.ts'
import { type SmartAccountsEnvConfig, smartAccountsEnvSchema } from './smart-accounts-env.ts'
import { type SolanaEnvConfig, solanaEnvSchema } from './solana-env.ts'

/** The server's general variables, then what each becomes in `ServerEnvConfig`. */
export const serverEnvSchema = z
  .object({
    WEB_DIST_DIR: z.string().min(1).default('apps/web/dist'),
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    WALLETCONNECT_PROJECT_ID: z
      .string()
      .regex(
        /^[0-9a-f]{32}$/i,
        'must be a WalletConnect (Reown) project id: 32 hex digits, from cloud.reown.com',
      )
      .optional(),
    RECEIPT_SIGNING_KEY: z
      .string()
      .regex(
        /^0x[0-9a-fA-F]{64}$/,
        'must be a secp256k1 private key: 0x followed by 64 hex digits (e.g. `cast wallet new`)',
      )
      .optional(),
    X402_FACILITATOR_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL of an x402 facilitator' })
      .optional(),
  })
  .transform((env) => ({
    /** The web app's build, served at / (WEB_DIST_DIR). */
    webDistDir: resolveFromRoot(env.WEB_DIST_DIR),
    /**
     * METRICS_TOKEN: when set, GET /metrics wants `Authorization: Bearer <token>`. Without it /metrics
     * is open in development and refused in production (`production`).
     */
    metricsToken: env.METRICS_TOKEN,
    /**
     * The WalletConnect (Reown) project id (WALLETCONNECT_PROJECT_ID): served to the web by
     * GET /api/config, and the CSP then admits WalletConnect's relay; without it the pay modal's
     * 'Continue with WalletConnect' is off.
     */
    walletConnectProjectId: env.WALLETCONNECT_PROJECT_ID,
    /**
     * RECEIPT_SIGNING_KEY: the secp256k1 key this instance signs payment receipts with
     * (docs/api.md#receipts); never logged nor sent to the page. In dev mode without it, a key
     * generated once into `${dataDir}/receipt-signing.key` (mode 0600); otherwise the receipt
     * endpoints answer 503 until it is set (payments themselves go on).
     */
    receiptSigningKey: env.RECEIPT_SIGNING_KEY as `0x${string}` | undefined,
    /**
     * X402_FACILITATOR_URL: the x402 facilitator this server's paid resources verify and settle with
     * (its base URL, before `/verify`); without it, its own facilitator, in-process (docs/decisions/0031).
     */
    x402FacilitatorUrl: env.X402_FACILITATOR_URL?.replace(/\/+$/, ''),
  }))

/** The server's general settings, from its section of the environment. */
export type ServerEnvConfig = z.output<typeof serverEnvSchema>

/** Everything the app server needs to know about its surroundings; tests build their own. */
export type ServerConfig = HostConfig &
  SignerEnvConfig &
  ServerEnvConfig &
  RoutingEnvConfig &
  SmartAccountsEnvConfig &
  SolanaEnvConfig

/**
 * Parses the environment into a `ServerConfig`: every section the app server owns (the host's,
 * the signer's it mounts, and its own). Relative paths resolve against the repository root so the
 * server behaves the same whichever directory it is started from. Throws an Error naming every
 * invalid variable; `main.ts` prints it and exits.
 */
export function parseServerEnv(source: Record<string, string | undefined> = process.env): ServerConfig {
  const sections = parseEnvSections(source, {
    host: hostEnvSchema,
    signer: signerEnvSchema,
    server: serverEnvSchema,
    routing: routingEnvSchema,
    smartAccounts: smartAccountsEnvSchema,
    solana: solanaEnvSchema,
  })
  return {
    ...sections.host,
    ...sections.signer,
    ...sections.server,
    ...sections.routing,
    ...sections.smartAccounts,
    ...sections.solana,
  }
}
