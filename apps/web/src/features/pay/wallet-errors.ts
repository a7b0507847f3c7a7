import { AppError } from '@quicklinks/core/app-error'

/** Wallet errors as the pay modal words them (docs/product.md#errors-payment). */

function readField(value: unknown, field: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[field] : undefined
}

/**
 * True when the wallet's user refused (EIP-1193 code 4001, viem's UserRejectedRequestError),
 * found by walking the cause chain (viem wraps the provider's error).
 */
export function isUserRejection(error: unknown): boolean {
  const isRejection = (link: unknown) =>
    readField(link, 'code') === 4001 || readField(link, 'name') === 'UserRejectedRequestError'
  return AppError.walk(error, isRejection) !== undefined
}

/** viem's one-line `shortMessage`, else the first line of the message; undefined when there is none. */
export function getShortMessage(error: unknown): string | undefined {
  const short = readField(error, 'shortMessage')
  if (typeof short === 'string' && short.length > 0) return short
  const message = readField(error, 'message')
  if (typeof message === 'string' && message.trim().length > 0) return message.trim().split('\n')[0]
  return undefined
}

/** What wagmi throws (as a user rejection) when a wallet adds a chain on 4902 but stays off it. */
export const switchAfterAddRejectedMessage = 'User rejected switch after adding network.'

/**
 * The description of the 'Payment failed' toast: a refused switch after adding the chain, a
 * rejection, the short message, or the default.
 */
export function describePaymentError(error: unknown): string {
  const isSwitchAfterAddRejected = (link: unknown) =>
    readField(link, 'message') === switchAfterAddRejectedMessage ||
    readField(link, 'details') === switchAfterAddRejectedMessage
  if (AppError.walk(error, isSwitchAfterAddRejected) !== undefined) return switchAfterAddRejectedMessage
  if (isUserRejection(error)) return 'Transaction was rejected by the user.'
  return getShortMessage(error) ?? 'Failed to submit transaction.'
}

/** True for EIP-1193's 'unrecognised chain' answer to wallet_switchEthereumChain. */
export function isUnknownChainError(error: unknown): boolean {
  return AppError.walk(error, (link) => readField(link, 'code') === 4902) !== undefined
}
