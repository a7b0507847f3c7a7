import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'

/** What the web needs to know about this server before it calls anything else (docs/api.md#config). */
export const publicConfigSchema = z.object({
  routingProvider: describeSchema(
    z.enum(['local', 'squid']),
    'The configured routing provider (ROUTING_PROVIDER): call /api/{routingProvider}/chains, /tokens, /route',
  ),
  // Optional for the reader: a server from before WALLETCONNECT_PROJECT_ID says nothing, which means off.
  walletConnectProjectId: describeSchema(
    z.optional(z.nullable(z.string())),
    "The WalletConnect (Reown) project id the pay modal's 'Continue with WalletConnect' uses (WALLETCONNECT_PROJECT_ID), or null when WalletConnect is not configured",
  ),
})

/** The answer of GET /api/config. */
export const publicConfigResponseSchema = z.object({ data: publicConfigSchema })

/** The server's public settings. */
export type PublicConfig = z.infer<typeof publicConfigSchema>
