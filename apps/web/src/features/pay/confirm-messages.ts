import type { RouteState } from './route-builder'

export const buildingRouteMessage = 'Building route…'
export const waitingForInputsMessage = 'Waiting for amount/token/chain…'

/** What the confirm step knows when it decides whether the payer may pay. */
export type ConfirmCheck = {
  amount: bigint | undefined
  /** Null while the balance loads. */
  balance: bigint | null
  isNative: boolean
  /** The spender of the ready route (docs/product.md#approval-and-spender), null when none. */
  spender: string | null
  route: RouteState
  /**
   * The amount comes from the route (exact output: an invoice or a link with an amount): until the
   * route is ready there is no amount to blame, only the route's own message.
   */
  isAmountQuoted?: boolean | undefined
}

/**
 * What blocks Confirm & Pay (docs/product.md#confirm-messages), in order: the amount, the balance, the
 * spender of a non-native payment, then the route ('Building route…', 'Waiting for amount/token/chain…' while
 * in progress, the route error or 'Route build failed.'). Empty when nothing stands in the way.
 */
export function getConfirmMessages({
  amount,
  balance,
  isNative,
  spender,
  route,
  isAmountQuoted = false,
}: ConfirmCheck): string[] {
  const messages: string[] = []
  if (isAmountQuoted && amount === undefined && route.status !== 'ready') {
    // Nothing to check before the quote names the amount.
  } else if (amount === undefined || amount <= 0n) messages.push('Amount is invalid.')
  else if (balance !== null && balance === 0n) messages.push('Insufficient balance.')
  else if (balance !== null && amount > balance) messages.push('Amount exceeds available balance.')
  switch (route.status) {
    case 'idle':
      messages.push(waitingForInputsMessage)
      break
    case 'building':
      messages.push(buildingRouteMessage)
      break
    case 'error':
      messages.push(route.message.length > 0 ? route.message : 'Route build failed.')
      break
    case 'ready':
      if (!isNative && spender === null) messages.push('Missing Squid spender address for this route.')
      break
    default: {
      const unknownRoute: never = route
      return unknownRoute
    }
  }
  return messages
}

/** True for the messages that only say something is on its way (no toast for them). */
export function isProgressMessage(message: string): boolean {
  return message === buildingRouteMessage || message === waitingForInputsMessage
}

/** The first message worth a 'Cannot confirm payment' toast, or null. */
export function getBlockingMessage(messages: readonly string[]): string | null {
  return messages.find((message) => !isProgressMessage(message)) ?? null
}

/** True when the payer must approve the spender first: a token whose allowance is below the amount. */
export function isApprovalNeeded(
  isNative: boolean,
  amount: bigint | undefined,
  allowance: bigint | null,
): boolean {
  if (isNative || amount === undefined) return false
  return allowance === null || amount > allowance
}

/**
 * Confirm & Pay is enabled only with a ready route, a positive amount, no messages, and
 * for a token an allowance that covers the amount with no approval or allowance read pending,
 * unless the payment carries its own approval (`isApprovalCarried`: an ERC-5792 batch or a permit,
 * docs/product.md#one-confirmation).
 */
export function canConfirmPayment(
  check: ConfirmCheck & {
    allowance: bigint | null
    isApproving: boolean
    isCheckingAllowance: boolean
    isApprovalCarried?: boolean | undefined
  },
): boolean {
  if (check.route.status !== 'ready') return false
  if (check.amount === undefined || check.amount <= 0n) return false
  if (getConfirmMessages(check).length > 0) return false
  if (check.isNative) return true
  if (check.isApproving) return false
  if (check.isApprovalCarried === true) return true
  return !check.isCheckingAllowance && !isApprovalNeeded(false, check.amount, check.allowance)
}

/** The route line of the confirm step. */
export function describeRouteLine(route: RouteState): string {
  switch (route.status) {
    case 'idle':
      return waitingForInputsMessage
    case 'building':
      return buildingRouteMessage
    case 'error':
      return `Route error: ${route.message.length > 0 ? route.message : 'Route failed'}`
    case 'ready':
      return 'Route ready ✓'
    default: {
      const unknownRoute: never = route
      return unknownRoute
    }
  }
}
