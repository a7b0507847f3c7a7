import {
  paymasterContextSchema,
  paymasterMethods,
  policySpentMessage,
  type SponsorRefusalReason,
} from '@quicklinks/core/api/smart-accounts'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import {
  type Address,
  concatHex,
  getAddress,
  type Hex,
  isAddressEqual,
  type LocalAccount,
  numberToHex,
  type PublicClient,
} from 'viem'
import type { SponsorPolicyConfig } from '../../config/sponsor-policy-settings.ts'
import { assertSponsoredSender } from './assert-sponsored-sender.ts'
import {
  assertFeesBounded,
  assertGasBounded,
  estimateSponsoredGas,
  readSponsoredFeeCeiling,
} from './bound-sponsored-gas.ts'
import { type AccountCall, decodeAccountCalls } from './decode-account-calls.ts'
import { getGrantedSponsoredGas, grantSponsoredGas } from './grant-sponsored-gas.ts'
import { JsonRpcError, jsonRpcErrorCodes } from './json-rpc-error.ts'
import type { SmartAccountChain } from './list-smart-account-chains.ts'
import { resolveSponsorPolicyTargets, type SponsorPolicyTargets } from './resolve-sponsor-policy-targets.ts'
import { type RpcUserOperation, rpcUserOperationSchema } from './rpc-user-operation.ts'
import { encodeSponsorWindow, signSponsorPaymasterData } from './sign-sponsor-paymaster-data.ts'

/** Gas SponsorPaymaster's validation gets: a hash of the operation and one ecrecover, with room to spare. */
export const sponsorVerificationGasLimit = 100_000n
/** SponsorPaymaster returns no context, so the EntryPoint never calls its postOp. */
export const sponsorPostOpGasLimit = 0n
/** How long a signed sponsorship stays usable: time to sign the operation and for the bundler to include it. */
const sponsorValiditySeconds = 600

/**
 * A well-formed signature nobody made (a low s, so ecrecover runs and costs what a real one does):
 * the stub the client estimates gas with before the real paymasterData is signed.
 */
const stubSignature: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

const erc20TransferSelector = '0xa9059cbb'
const erc20ApproveSelector = '0x095ea7b3'

/** ERC-7677's answer: what the client puts into the operation's paymaster fields. */
export type PaymasterAnswer = {
  paymaster: Address
  paymasterData: Hex
  paymasterVerificationGasLimit: Hex
  paymasterPostOpGasLimit: Hex
  /** Stub answers only: false, so the client asks pm_getPaymasterData once gas is estimated. */
  isFinal?: boolean
}

export type SponsorUserOperationInput = {
  db: Database
  chain: SmartAccountChain
  /** The chain's public client (ownership checks, EIP-7702 delegation, current fees). */
  client: PublicClient
  /** The signed-in user. */
  user: { id: string; address: Address }
  policies: readonly SponsorPolicyConfig[]
  /** The routing catalogue's tokens (a policy's token symbols resolve among them). */
  catalogueTokens: readonly { chainId: number; address: string; symbol: string }[]
  /** getPaymasterSigner(config); none: nothing is sponsored. */
  signer: LocalAccount | undefined
  method: string
  params: readonly unknown[]
  now?: Date
}

/**
 * The sponsor service (ERC-7677) for one request: pm_getPaymasterStubData answers stub data after
 * checking the policy (no gas is granted yet); pm_getPaymasterData checks the policy, bounds the
 * operation's fees by the chain's current fees and its gas limits by the bundler's estimate, grants
 * the operation's maximum gas cost against the user's and the policy's daily caps, and signs
 * SponsorPaymaster data for exactly this operation and its sender's EIP-7702 delegate. The policy
 * (context.policyId) must exist and cover the chain; the sender must be one of the user's own
 * accounts and be, or be owned by, an embedded wallet (`assertSponsoredSender`); every call of the
 * operation must be an ERC-20 transfer or approve of a policy token or a call to a policy contract.
 * Rejects with JsonRpcError: -32601 for another method, -32602 for malformed params, -32001 with
 * data.reason UNKNOWN_POLICY, NOT_SPONSORED or POLICY_SPENT (with policyId and resetsAt) for a
 * refusal; rejects otherwise when the chain, the bundler or the database fails.
 */
export async function sponsorUserOperation(input: SponsorUserOperationInput): Promise<PaymasterAnswer> {
  const { chain, method } = input
  if (!(paymasterMethods as readonly string[]).includes(method)) {
    throw new JsonRpcError({
      code: jsonRpcErrorCodes.methodNotFound,
      message: `The method ${method} is not served; use pm_getPaymasterStubData or pm_getPaymasterData.`,
    })
  }
  const { operation, policyId } = parseParams(input.params, chain)
  const policy = input.policies.find((each) => each.id === policyId)
  if (policy === undefined) {
    throw refusal('UNKNOWN_POLICY', `There is no gas sponsorship policy "${policyId}".`, { policyId })
  }
  if (
    (policy.chainIds !== undefined && !policy.chainIds.includes(chain.chainId)) ||
    chain.paymaster === null
  ) {
    throw refusal('NOT_SPONSORED', `Gas is not sponsored on chain ${chain.chainId} under this policy.`, {
      policyId,
    })
  }
  if (input.signer === undefined) {
    throw refusal('NOT_SPONSORED', 'Gas sponsorship is not configured on this server.', { policyId })
  }
  const { delegate } = await assertSponsoredSender({ ...input, operation, policyId })
  assertCallsCovered(operation, resolveSponsorPolicyTargets(policy, chain, input.catalogueTokens), policyId)

  const now = input.now ?? new Date()
  const day = now.toISOString().slice(0, 10)
  const resetsAt = new Date(`${day}T00:00:00.000Z`).getTime() + 86_400_000
  const grantKey = { userId: input.user.id, policyId, day }
  const spent = () =>
    refusal('POLICY_SPENT', policySpentMessage, { policyId, resetsAt: new Date(resetsAt).toISOString() })
  const window = { validUntil: Math.floor(now.getTime() / 1000) + sponsorValiditySeconds, validAfter: 0 }
  const answer = {
    paymaster: chain.paymaster,
    paymasterVerificationGasLimit: numberToHex(sponsorVerificationGasLimit),
    paymasterPostOpGasLimit: numberToHex(sponsorPostOpGasLimit),
  }
  const stubPaymasterData = concatHex([encodeSponsorWindow(window), stubSignature])

  if (method === 'pm_getPaymasterStubData') {
    // Nothing is granted for a stub, but a spent policy is said now, before the user signs anything.
    const granted = await getGrantedSponsoredGas(input.db, grantKey)
    if (granted.userWei >= policy.dailyGasCapWei || granted.policyWei >= policy.globalDailyGasCapWei)
      throw spent()
    return { ...answer, paymasterData: stubPaymasterData, isFinal: false }
  }

  // What the paymaster pays is gas × fee: both are bounded by the chain's own, read now.
  assertFeesBounded(operation, await readSponsoredFeeCeiling(input.client), policyId)
  const estimate = await estimateSponsoredGas({
    chain,
    operation,
    paymaster: {
      paymaster: chain.paymaster,
      paymasterVerificationGasLimit: sponsorVerificationGasLimit,
      paymasterPostOpGasLimit: sponsorPostOpGasLimit,
      paymasterData: stubPaymasterData,
    },
    policyId,
  })
  assertGasBounded(operation, estimate, policyId)

  const gas =
    operation.verificationGasLimit +
    operation.callGasLimit +
    operation.preVerificationGas +
    sponsorVerificationGasLimit +
    sponsorPostOpGasLimit
  const costWei = gas * operation.maxFeePerGas
  const outcome = await grantSponsoredGas(input.db, {
    ...grantKey,
    costWei,
    capWei: policy.dailyGasCapWei,
    globalCapWei: policy.globalDailyGasCapWei,
  })
  if (outcome !== 'granted') throw spent()
  const paymasterData = await signSponsorPaymasterData(input.signer, {
    chainId: chain.chainId,
    paymaster: chain.paymaster,
    operation,
    paymasterVerificationGasLimit: sponsorVerificationGasLimit,
    paymasterPostOpGasLimit: sponsorPostOpGasLimit,
    delegate,
    ...window,
  })
  return { ...answer, paymasterData }
}

function parseParams(
  params: readonly unknown[],
  chain: SmartAccountChain,
): { operation: RpcUserOperation; policyId: string } {
  const [rawOperation, entryPoint, chainIdHex, context] = params
  const parsed = rpcUserOperationSchema.safeParse(rawOperation)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw invalidParams(
      `The user operation is malformed: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    )
  }
  if (
    typeof entryPoint !== 'string' ||
    !/^0x[0-9a-fA-F]{40}$/.test(entryPoint) ||
    !isAddressEqual(getAddress(entryPoint), chain.entryPoint)
  ) {
    throw invalidParams(`Only EntryPoint v0.8 (${chain.entryPoint}) is sponsored.`)
  }
  if (
    typeof chainIdHex !== 'string' ||
    !/^0x[0-9a-fA-F]+$/.test(chainIdHex) ||
    Number(chainIdHex) !== chain.chainId
  ) {
    throw invalidParams(
      `The chain id parameter must be ${numberToHex(chain.chainId)}, the chain of this path.`,
    )
  }
  const policyContext = paymasterContextSchema.safeParse(context)
  if (!policyContext.success) {
    throw refusal('UNKNOWN_POLICY', 'Name a gas sponsorship policy in the context: { "policyId": "…" }.', {
      policyId: null,
    })
  }
  return { operation: parsed.data, policyId: policyContext.data.policyId }
}

function assertCallsCovered(
  operation: RpcUserOperation,
  targets: SponsorPolicyTargets,
  policyId: string,
): void {
  const calls = decodeAccountCalls(operation.callData as Hex)
  if (calls === undefined || calls.length === 0) {
    throw refusal(
      'NOT_SPONSORED',
      'Only calls made through the account’s execute or executeBatch are sponsored.',
      {
        policyId,
      },
    )
  }
  const uncovered = calls.find((call) => !isCovered(call, targets))
  if (uncovered !== undefined) {
    throw refusal('NOT_SPONSORED', `This operation calls ${uncovered.to}, which the policy does not cover.`, {
      policyId,
      target: uncovered.to,
    })
  }
}

function isCovered(call: AccountCall, targets: SponsorPolicyTargets): boolean {
  const to = call.to.toLowerCase()
  if (targets.contracts.has(to)) return true
  if (!targets.tokens.has(to) || call.value !== 0n) return false
  const selector = call.data.slice(0, 10).toLowerCase()
  return selector === erc20TransferSelector || selector === erc20ApproveSelector
}

function refusal(reason: SponsorRefusalReason, message: string, data: Record<string, unknown>): JsonRpcError {
  return new JsonRpcError({ code: jsonRpcErrorCodes.sponsorRefused, message, data: { reason, ...data } })
}

function invalidParams(message: string): JsonRpcError {
  return new JsonRpcError({ code: jsonRpcErrorCodes.invalidParams, message })
}
