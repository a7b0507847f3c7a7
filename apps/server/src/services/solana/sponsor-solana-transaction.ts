import {
  type SolanaFeePayerResult,
  type SolanaSponsorRefusalReason,
  solanaFeePayerParamsSchema,
} from '@quicklinks/core/api/solana'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { findAccountSolanaAddress } from '@quicklinks/signer/api/find-account-solana-address'
import {
  compileTransaction,
  decompileTransactionMessage,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getTransactionEncoder,
  type KeyPairSigner,
  partiallySignTransaction,
  setTransactionMessageFeePayer,
  type Transaction,
} from '@solana/kit'
import type { SolanaSponsorPolicyConfig } from '../../config/solana-env.ts'
import { JsonRpcError, jsonRpcErrorCodes } from '../smart-accounts/json-rpc-error.ts'
import { decodeSolanaTransaction, maxSolanaTransactionBytes } from './decode-solana-transaction.ts'
import { getSolanaTransactionFee, type ReadableCompiledMessage } from './get-solana-transaction-fee.ts'
import { grantSolanaFees } from './grant-solana-fees.ts'

/**
 * The fee-payer method (docs/api.md#solana): checks the user's transaction against the policy,
 * makes the sponsor its fee payer when the user named himself, counts the fee against the user's
 * and the policy's daily caps and signs as fee payer. Only the user's own transactions are paid for:
 * the signed-in user's Solana account (the signer wallet's m/44'/501'/0'/0', found by the user's EVM
 * address) must be a required signer, and the only one beside the sponsor. Resolves `{ serializedTransaction }`: the wire transaction in
 * base64 with the sponsor's signature in the first slot and the other signers' slots as they came
 * (zeros when the sponsor had to become the fee payer, since the message changed).
 *
 * Rejects with JsonRpcError -32602 for params or a transaction it cannot read, and -32001 with
 * `data.reason` for each rule the transaction breaks: UNKNOWN_POLICY, LOOKUP_TABLES_UNSUPPORTED,
 * PROGRAM_NOT_ALLOWED, SPONSOR_ACCOUNT_USED, NOT_YOUR_ACCOUNT, FEE_OVER_CAP, POLICY_SPENT
 * (`data.resetsAt`, `data.scope`). A database failure rejects as it is.
 */
export async function sponsorSolanaTransaction(input: {
  db: Database
  /** The signed-in user: the id the caps count by, the EVM address their Solana account is found by. */
  user: { id: string; address: string }
  policies: readonly SolanaSponsorPolicyConfig[]
  sponsor: KeyPairSigner
  params: unknown
  now?: Date
  /** Where the user's Solana address comes from (default: the signer's record, `findAccountSolanaAddress`). */
  findSolanaAddress?: (db: Database, evmAddress: string) => Promise<string | null>
}): Promise<SolanaFeePayerResult> {
  const raw = Array.isArray(input.params) ? input.params[0] : input.params
  const parsed = solanaFeePayerParamsSchema.safeParse(raw)
  if (!parsed.success) {
    throw invalidParams('params must be [{ policyId, serializedTransaction }] (a base64 wire transaction)')
  }
  const { policyId, serializedTransaction } = parsed.data
  const policy = input.policies.find((each) => each.id === policyId)
  if (policy === undefined) {
    throw refusal('UNKNOWN_POLICY', `No Solana sponsorship policy is named ${JSON.stringify(policyId)}`, {
      policyId,
    })
  }
  const decoded = decodeSolanaTransaction(serializedTransaction)
  if (typeof decoded === 'string') throw invalidParams(`serializedTransaction: ${decoded}`)
  const { message } = decoded

  if (message.version === 0 && (message.addressTableLookups?.length ?? 0) > 0) {
    throw refusal(
      'LOOKUP_TABLES_UNSUPPORTED',
      'The transaction loads accounts from address lookup tables, which the sponsor cannot check',
    )
  }
  const programs = new Set(policy.programs)
  for (const instruction of message.instructions) {
    const programId = message.staticAccounts[instruction.programAddressIndex]
    if (programId === undefined || !programs.has(programId)) {
      throw refusal(
        'PROGRAM_NOT_ALLOWED',
        `Policy ${policy.id} does not sponsor calls to program ${programId}`,
        {
          programId: programId ?? null,
        },
      )
    }
  }
  const sponsorIndex = message.staticAccounts.indexOf(input.sponsor.address)
  const usesSponsor =
    sponsorIndex > 0 ||
    (sponsorIndex === 0 &&
      message.instructions.some(
        (instruction) =>
          instruction.programAddressIndex === 0 || (instruction.accountIndices ?? []).includes(0),
      ))
  if (usesSponsor) {
    throw refusal(
      'SPONSOR_ACCOUNT_USED',
      "An instruction names the sponsor's account; the sponsor only pays fees",
      { sponsorAddress: input.sponsor.address },
    )
  }

  const solanaAddress = await (input.findSolanaAddress ?? findAccountSolanaAddress)(
    input.db,
    input.user.address,
  )
  assertSignedByUserAlone(message, input.sponsor.address, solanaAddress)

  const { transaction, finalMessage } =
    sponsorIndex === 0
      ? { transaction: decoded.transaction, finalMessage: message }
      : withSponsorAsFeePayer(decoded.transaction, message, input.sponsor)

  const { feeLamports } = getSolanaTransactionFee(finalMessage)
  if (feeLamports > policy.maxFeeLamports) {
    throw refusal(
      'FEE_OVER_CAP',
      `The fee of ${feeLamports} lamports is over policy ${policy.id}'s cap of ${policy.maxFeeLamports} lamports per transaction`,
      { feeLamports: feeLamports.toString(), maxFeeLamports: policy.maxFeeLamports.toString() },
    )
  }
  const now = input.now ?? new Date()
  const outcome = await grantSolanaFees(input.db, {
    userId: input.user.id,
    policyId: policy.id,
    day: now.toISOString().slice(0, 10),
    feeLamports,
    capLamports: policy.dailyFeeCapLamports,
    globalCapLamports: policy.globalDailyFeeCapLamports,
  })
  if (outcome !== 'granted') {
    const resetsAt = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1),
    ).toISOString()
    throw outcome === 'user-cap'
      ? refusal(
          'POLICY_SPENT',
          `Policy ${policy.id}'s daily fee cap of ${policy.dailyFeeCapLamports} lamports for this user is spent until ${resetsAt}`,
          { scope: 'user', resetsAt, dailyFeeCapLamports: policy.dailyFeeCapLamports.toString() },
        )
      : refusal(
          'POLICY_SPENT',
          `Policy ${policy.id}'s daily fee budget of ${policy.globalDailyFeeCapLamports} lamports for all users is spent until ${resetsAt}`,
          {
            scope: 'all-users',
            resetsAt,
            globalDailyFeeCapLamports: policy.globalDailyFeeCapLamports.toString(),
          },
        )
  }
  const signed = await partiallySignTransaction([input.sponsor.keyPair], transaction)
  return { serializedTransaction: getBase64EncodedWireTransaction(signed) }
}

/**
 * The same transaction with the sponsor as fee payer: the message decompiled (every account keeps
 * its role; the old fee payer stays a writable signer where an instruction names it), recompiled in
 * the same version with the sponsor first, and every signature slot empty, since the message changed.
 */
function withSponsorAsFeePayer(
  original: Transaction,
  message: ReadableCompiledMessage,
  sponsor: KeyPairSigner,
): { transaction: Transaction; finalMessage: ReadableCompiledMessage } {
  let transaction: Transaction
  try {
    transaction = compileTransaction(
      setTransactionMessageFeePayer(sponsor.address, decompileTransactionMessage(message)),
    )
  } catch {
    throw invalidParams('serializedTransaction: its message cannot be rebuilt with the sponsor as fee payer')
  }
  if (getTransactionEncoder().encode(transaction).length > maxSolanaTransactionBytes) {
    throw invalidParams(
      `serializedTransaction: with the sponsor as fee payer it would pass Solana's ${maxSolanaTransactionBytes} bytes; build it with the sponsor as fee payer`,
    )
  }
  const finalMessage = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes)
  if (finalMessage.version !== message.version || original.messageBytes === transaction.messageBytes) {
    throw invalidParams('serializedTransaction: its message cannot be rebuilt with the sponsor as fee payer')
  }
  return { transaction, finalMessage }
}

/**
 * Refuses (NOT_YOUR_ACCOUNT) a transaction that is not the user's own: the user has no Solana
 * account in the signer, another account is a required signer beside the sponsor and the user (its
 * owner, not the user, is who the transaction acts for: a third party's wallet, or a fresh key pair
 * the sponsor cannot tell from one), or the user's account does not sign it at all.
 */
function assertSignedByUserAlone(
  message: ReadableCompiledMessage,
  sponsorAddress: string,
  solanaAddress: string | null,
): void {
  if (solanaAddress === null) {
    throw refusal(
      'NOT_YOUR_ACCOUNT',
      'Only transactions your own Solana account signs are sponsored, and this account has no embedded-wallet Solana account',
      { solanaAddress: null },
    )
  }
  const signers = message.staticAccounts.slice(0, message.header.numSignerAccounts)
  const other = signers.find((signer) => signer !== sponsorAddress && signer !== solanaAddress)
  if (other !== undefined) {
    throw refusal(
      'NOT_YOUR_ACCOUNT',
      `Only transactions your own Solana account signs are sponsored; ${other} also signs this one`,
      { solanaAddress, signer: other },
    )
  }
  if (!signers.some((signer) => signer === solanaAddress)) {
    throw refusal(
      'NOT_YOUR_ACCOUNT',
      `Only transactions your own Solana account (${solanaAddress}) signs are sponsored; it does not sign this one`,
      { solanaAddress },
    )
  }
}

function invalidParams(message: string): JsonRpcError {
  return new JsonRpcError({ code: jsonRpcErrorCodes.invalidParams, message })
}

function refusal(
  reason: SolanaSponsorRefusalReason,
  message: string,
  data: Record<string, unknown> = {},
): JsonRpcError {
  return new JsonRpcError({ code: jsonRpcErrorCodes.sponsorRefused, message, data: { reason, ...data } })
}
