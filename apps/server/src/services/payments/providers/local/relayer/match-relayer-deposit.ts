import { isNativeTokenAddress, zeroAddress } from '@quicklinks/core/native-token-address'
import type { RouteIntent } from '../../../../../db/schema.ts'
import { depositProviderDataSchema } from '../local-provider-data.ts'
import type { RelayerOrderFields } from './relayer-order.ts'

/** Which part of a deposit disagrees with the quote it names. */
export type RelayerDepositMismatch =
  | 'unknown intent'
  | 'provider'
  | 'quote'
  | 'source chain'
  | 'source PayRouter'
  | 'destination chain'
  | 'destination PayRouter'
  | 'payer'
  | 'receiver'
  | 'destination token'
  | 'minimum out'
  | 'escrow token'
  | 'escrow amount'
  | 'fill deadline'

export type RelayerDepositMatch =
  | { isMatch: true; destinationFromBlock: number }
  | { isMatch: false; mismatches: RelayerDepositMismatch[]; reason: string }

export type MatchRelayerDepositOptions = {
  deposit: RelayerOrderFields
  /** The route intent whose id the deposit carries, if the database has one. */
  intent: RouteIntent | undefined
  /** PayRouter of the deposit's source chain (where its Deposited event came from). */
  sourcePayRouter: string
  /** PayRouter of the deposit's destination chain, when this relayer serves that chain. */
  destinationPayRouter: string | undefined
}

/**
 * Whether a deposit is the one its route intent's quote asked for: same provider ('local'),
 * chains, PayRouters, payer, receiver and destination token (the quote's all-e native placeholder is
 * address(0) on chain), at least the quoted minimum out and minimum escrow, the quoted escrow token, and
 * the very fill deadline. Anyone can deposit with a copied intent id; only a match is worth a
 * fill. On a match it also gives the destination block the fill cannot precede. Pure; never throws.
 */
export function matchRelayerDeposit(options: MatchRelayerDepositOptions): RelayerDepositMatch {
  const { deposit, intent } = options
  if (!intent) return mismatch(['unknown intent'])
  if (intent.provider !== 'local') return mismatch(['provider'])
  const parsed = depositProviderDataSchema.safeParse(intent.providerData)
  if (!parsed.success) return mismatch(['quote'])
  const quote = parsed.data
  const checks: [RelayerDepositMismatch, boolean][] = [
    ['source chain', intent.fromChainId === deposit.sourceChainId],
    ['source PayRouter', isSameAddress(quote.payRouter, options.sourcePayRouter)],
    ['destination chain', intent.toChainId === deposit.destinationChainId],
    [
      'destination PayRouter',
      options.destinationPayRouter !== undefined &&
        isSameAddress(quote.destinationPayRouter, options.destinationPayRouter),
    ],
    ['payer', isSameAddress(intent.fromAddress, deposit.payer)],
    ['receiver', isSameAddress(intent.toAddress, deposit.receiver)],
    ['destination token', isSameToken(intent.toToken, deposit.destinationToken)],
    ['minimum out', isAtLeast(deposit.minAmountOut, intent.toAmountMin)],
    ['escrow token', isSameAddress(quote.escrowToken, deposit.escrowToken)],
    ['escrow amount', isAtLeast(deposit.escrowAmount, quote.minEscrowAmount)],
    ['fill deadline', quote.fillDeadline === deposit.fillDeadline],
  ]
  const failed = checks.filter(([, isOk]) => !isOk).map(([name]) => name)
  if (failed.length > 0) return mismatch(failed)
  return { isMatch: true, destinationFromBlock: quote.destinationFromBlock }
}

function mismatch(mismatches: RelayerDepositMismatch[]): RelayerDepositMatch {
  const reason =
    mismatches[0] === 'unknown intent'
      ? 'Ignored: no route intent has this id'
      : `Ignored: does not match its route intent (${mismatches.join(', ')})`
  return { isMatch: false, mismatches, reason }
}

function isSameAddress(left: string, right: string): boolean {
  return left.toLowerCase() === right.toLowerCase()
}

/** Quotes store native as the all-e placeholder; PayRouter only knows address(0) for it. */
function isSameToken(quoted: string, deposited: string): boolean {
  if (isNativeTokenAddress(quoted)) return isSameAddress(deposited, zeroAddress)
  return isSameAddress(quoted, deposited)
}

function isAtLeast(value: string, minimum: string): boolean {
  if (!/^\d+$/.test(value) || !/^\d+$/.test(minimum)) return false
  return BigInt(value) >= BigInt(minimum)
}
