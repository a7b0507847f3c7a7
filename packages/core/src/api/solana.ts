import { z } from 'zod'

/**
 * POST /api/solana (docs/api.md#solana): the signed-in user's Solana JSON-RPC endpoint. It answers
 * the fee-payer method itself (the sponsor signs as fee payer within a policy) and the read and
 * send methods a wallet needs, from the in-process LiteSVM in development or by relaying them to
 * SOLANA_RPC_URL in production. One JSON-RPC 2.0 request per POST, as docs/api.md#rpc-relay takes.
 */

/**
 * The fee-payer method: params `[{ policyId, serializedTransaction }]` (or the object alone),
 * result `{ serializedTransaction }`. `alchemy_requestFeePayer` is the same method under the name
 * clients written for that provider send.
 */
export const solanaFeePayerMethod = 'quicklinks_requestFeePayer'
export const solanaFeePayerMethodAliases = ['alchemy_requestFeePayer'] as const

/** The standard Solana RPC methods the endpoint serves (relays in production, LiteSVM in development). */
export const solanaRelayedMethods = [
  'getLatestBlockhash',
  'isBlockhashValid',
  'getBalance',
  'getAccountInfo',
  'getMultipleAccounts',
  'getMinimumBalanceForRentExemption',
  'getFeeForMessage',
  'getSlot',
  'getBlockHeight',
  'getSignatureStatuses',
  'getTokenAccountBalance',
  'simulateTransaction',
  'sendTransaction',
] as const

/** Only on the development LiteSVM: a faucet, as a test validator has. */
export const solanaDevnetOnlyMethods = ['requestAirdrop'] as const

/**
 * The fee-payer request's one parameter. `serializedTransaction` is the transaction's wire form
 * (signatures then message) in base64, legacy or version 0; its fee payer is the sponsor (ask
 * GET /api/config `solana.sponsorAddress`) or the user, whom the sponsor then replaces as fee payer.
 */
export const solanaFeePayerParamsSchema = z.object({
  policyId: z.string().min(1).max(64),
  // A transaction is at most 1232 bytes: 1644 characters of base64.
  serializedTransaction: z.string().min(1).max(2048),
})
export type SolanaFeePayerParams = z.output<typeof solanaFeePayerParamsSchema>

/** The fee-payer result: the transaction with the sponsor as fee payer and its signature in place. */
export const solanaFeePayerResultSchema = z.object({ serializedTransaction: z.string().min(1) })
export type SolanaFeePayerResult = z.output<typeof solanaFeePayerResultSchema>

/**
 * Why the sponsor refused (JSON-RPC error code -32001, `data.reason`), one per rule of the policy:
 * - UNKNOWN_POLICY: no Solana policy has that id.
 * - PROGRAM_NOT_ALLOWED: an instruction calls a program the policy does not list (`data.programId`).
 * - SPONSOR_ACCOUNT_USED: an instruction names the sponsor's account, so it could move the
 *   sponsor's lamports or tokens; the sponsor only pays fees.
 * - NOT_YOUR_ACCOUNT: the signed-in user's own Solana account (the embedded wallet's
 *   m/44'/501'/0'/0') is not a required signer, or another account is one beside it and the
 *   sponsor (`data.solanaAddress`, the user's or null without one; `data.signer`, the other).
 * - FEE_OVER_CAP: the fee (5,000 lamports a signature plus the priority fee) is above the
 *   policy's `maxFeeLamports` (`data.feeLamports`, `data.maxFeeLamports`).
 * - POLICY_SPENT: the user's fees today under this policy would pass its daily cap
 *   (`data.scope` 'user'), or every user's together its global daily cap (`data.scope` 'all-users');
 *   `data.resetsAt`.
 * - LOOKUP_TABLES_UNSUPPORTED: a version-0 transaction loads accounts from address lookup tables,
 *   which the sponsor cannot check.
 * An unreadable transaction is a JSON-RPC invalid-params error (-32602).
 */
export const solanaSponsorRefusalReasons = [
  'UNKNOWN_POLICY',
  'PROGRAM_NOT_ALLOWED',
  'SPONSOR_ACCOUNT_USED',
  'NOT_YOUR_ACCOUNT',
  'FEE_OVER_CAP',
  'POLICY_SPENT',
  'LOOKUP_TABLES_UNSUPPORTED',
] as const
export type SolanaSponsorRefusalReason = (typeof solanaSponsorRefusalReasons)[number]

/** The SDK's error when a fee-payer answer has no transaction (docs/product.md#errors-sign-in). */
export const missingSponsoredTransactionMessage =
  'A sponsored-fee response must contain a serialized transaction'

/**
 * One JSON-RPC 2.0 request to POST /api/solana (no batches). `params` is the method's list, or for
 * the fee-payer method its one object alone.
 */
export const solanaRpcRequestSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.number(), z.string()]),
    method: z.string().max(64),
    params: z.union([z.array(z.unknown()).max(8), z.record(z.string(), z.unknown())]).optional(),
  })
  .meta({ id: 'SolanaRpcRequest' })
export type SolanaRpcRequest = z.infer<typeof solanaRpcRequestSchema>
