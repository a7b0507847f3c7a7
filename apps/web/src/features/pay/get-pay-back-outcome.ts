import type { PayStep } from './pay-modal-state'

/**
 * What Back, a backdrop click and Escape do on each step (docs/product.md#pay-modal-rules): close
 * (disconnecting the wallet) from wallet, success and failure; disconnect and return to the wallet step from
 * chain and token; one step back from amount and confirm; nothing while processing.
 */
export type BackOutcome = 'close' | 'disconnect' | 'previous' | 'none'

/** The back rule of `step` (see `BackOutcome`); the reducer and the modal's Back both follow it. */
export function getPayBackOutcome(step: PayStep): BackOutcome {
  switch (step) {
    case 'wallet':
    case 'success':
    case 'failure':
      return 'close'
    case 'chainToken':
      return 'disconnect'
    case 'amount':
    case 'confirm':
      return 'previous'
    case 'processing':
      return 'none'
    default: {
      const unknownStep: never = step
      return unknownStep
    }
  }
}
