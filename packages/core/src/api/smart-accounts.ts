import type { Address } from 'viem'
import { z } from 'zod'

/**
 * POST /api/bundler/{chainId} (docs/api.md#bundler) and POST /api/paymaster/{chainId}
 * (docs/api.md#paymaster): the signed-in user's ERC-4337 bundler relay and the sponsor service
 * (ERC-7677). Both take one JSON-RPC 2.0 request, as the relay of docs/api.md#rpc-relay does
 * (`rpcRelayRequestSchema`), and answer JSON-RPC.
 */

/** ERC-4337 EntryPoint v0.8 at its canonical address: the one our accounts and paymaster use. */
export const entryPointV08Address: Address = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'

/** The path: a chain with smart accounts (GET /api/config `smartAccounts.chains`). */
export const smartAccountChainParamsSchema = z.object({
  chainId: z.coerce.number().int().positive().describe('A chain of GET /api/config smartAccounts.chains'),
})

/**
 * The bundler methods the relay forwards: what a smart-account client needs to estimate, send and
 * follow its own user operations. Nothing that administers the bundler (debug_*, pimlico_send*).
 */
export const bundlerRelayedMethods = [
  'eth_chainId',
  'eth_supportedEntryPoints',
  'eth_estimateUserOperationGas',
  'eth_sendUserOperation',
  'eth_getUserOperationReceipt',
  'eth_getUserOperationByHash',
  'pimlico_getUserOperationGasPrice',
] as const

/** The ERC-7677 methods of the sponsor service. */
export const paymasterMethods = ['pm_getPaymasterStubData', 'pm_getPaymasterData'] as const

/**
 * Why the sponsor service refused (JSON-RPC error code -32001, `data.reason`): POLICY_SPENT (the
 * policy's daily gas cap for this user, or for all its users together, is used up: pay the gas from
 * the account, or wait for `data.resetsAt`), NOT_SPONSORED (outside the policy: another account,
 * not an embedded wallet's, another chain, contract or token, fees or gas above the bounds),
 * UNKNOWN_POLICY (no policy has the id in the request's context).
 */
export const sponsorRefusalReasons = ['POLICY_SPENT', 'NOT_SPONSORED', 'UNKNOWN_POLICY'] as const
export type SponsorRefusalReason = (typeof sponsorRefusalReasons)[number]

/** The message of a POLICY_SPENT refusal, as the web shows it. */
export const policySpentMessage =
  'Gas sponsorship for today is used up. Pay the gas from your account, or try again after 00:00 UTC.'

/** ERC-7677's context: which policy should pay. */
export const paymasterContextSchema = z.object({ policyId: z.string().min(1).max(64) })

/**
 * A refusal of the bundler relay or the sponsor service (403, 422): a JSON-RPC error answer
 * (`{ jsonrpc, id, error: { code, message, data? } }`), or the API's error body for what is refused
 * before the request is read (CSRF, body validation).
 */
export const smartAccountRefusalSchema = z
  .union([
    z.object({
      jsonrpc: z.literal('2.0'),
      id: z.union([z.number(), z.string(), z.null()]),
      error: z.object({
        code: z.number(),
        message: z.string(),
        data: z.record(z.string(), z.unknown()).optional(),
      }),
    }),
    z.object({
      error: z.object({
        code: z.string(),
        message: z.string(),
        field: z.string().optional(),
        details: z.record(z.string(), z.unknown()).optional(),
      }),
    }),
  ])
  .meta({ id: 'SmartAccountRefusal' })
