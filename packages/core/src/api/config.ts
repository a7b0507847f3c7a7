import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'

const addressSchema = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))

/** One chain where smart accounts work: its EntryPoint and account contracts (docs/api.md#config). */
export const smartAccountChainConfigSchema = z.object({
  chainId: z.number().check(z.int(), z.positive()),
  entryPoint: describeSchema(addressSchema, 'ERC-4337 EntryPoint v0.8'),
  accountFactory: describeSchema(addressSchema, 'QuickLinksAccountFactory: the single-owner smart account'),
  multiOwnerAccountFactory: describeSchema(addressSchema, 'QuickLinksMultiOwnerAccountFactory'),
  simple7702Account: describeSchema(addressSchema, 'Simple7702Account: what an EOA delegates to (EIP-7702)'),
  sponsored: describeSchema(
    z.boolean(),
    'Whether POST /api/paymaster/{chainId} can pay gas here (a paymaster, its signer and a policy covering the chain)',
  ),
})

/** Smart accounts on this server: the policy the app asks for and the chains with a bundler. */
export const smartAccountsConfigSchema = z.object({
  defaultPolicyId: describeSchema(
    z.nullable(z.string()),
    'The gas sponsorship policy the web names in paymaster requests (SPONSOR_DEFAULT_POLICY), or null',
  ),
  chains: z.array(smartAccountChainConfigSchema),
})

/** Solana on this server: where its JSON-RPC is and who pays sponsored fees (docs/api.md#solana). */
export const solanaConfigSchema = z.object({
  rpcPath: describeSchema(
    z.string(),
    "The signed-in user's Solana JSON-RPC endpoint on this origin (POST, docs/api.md#solana)",
  ),
  sponsorAddress: describeSchema(
    z.nullable(z.string()),
    'The base58 address that pays sponsored fees: build transactions with it as fee payer; null when nothing is sponsored',
  ),
  defaultPolicyId: describeSchema(
    z.nullable(z.string()),
    'The Solana fee sponsorship policy the web names in fee-payer requests (SOLANA_SPONSOR_DEFAULT_POLICY), or null',
  ),
})

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
  // Optional for the reader: a server from before smart accounts says nothing, which means none.
  smartAccounts: describeSchema(
    z.optional(smartAccountsConfigSchema),
    'Smart accounts (ERC-4337): the chains with a bundler (POST /api/bundler/{chainId}) and the default sponsorship policy',
  ),
  // Optional for the reader: a server from before Solana says nothing; null: Solana is not configured.
  solana: describeSchema(
    z.optional(z.nullable(solanaConfigSchema)),
    'Solana: the JSON-RPC endpoint, the fee sponsor and its default policy; null when Solana is not configured',
  ),
})

/** The answer of GET /api/config. */
export const publicConfigResponseSchema = z.object({ data: publicConfigSchema })

/** The server's public settings. */
export type PublicConfig = z.infer<typeof publicConfigSchema>
/** GET /api/config `smartAccounts`. */
export type SmartAccountsConfig = z.infer<typeof smartAccountsConfigSchema>
/** GET /api/config `solana`. */
export type SolanaConfig = z.infer<typeof solanaConfigSchema>
