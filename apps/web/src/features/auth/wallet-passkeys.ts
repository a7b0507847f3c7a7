import type { StepUp } from '@quicklinks/wallet/signer-types'
import { loadSignerStore, WalletSessionError } from './wallet-session'

/**
 * The web app's door to the wallet's passkeys (docs/signer.md#passkeys): the sign-in panel's
 * passkey buttons and Settings' passkeys section call these, never the SDK.
 */

/** A passkey of the signed-in user as Settings shows it. */
export type AddedPasskey = { authenticatorId: string; name: string; createdAt: string }

/**
 * Signs in with a passkey (`createNew`: makes one and creates the account with it; `email`, when
 * given, is the passkey's user name). Resolves once the wallet is connected. Rejects with the
 * SDK's or the signer's message: 'No user found', 'webauthn is not supported by this browser', the
 * browser's own refusal (cancelled, timed out).
 */
export async function connectWithPasskey(input: {
  createNew: boolean
  email?: string
}): Promise<{ isNewUser: boolean }> {
  const store = await loadSignerStore()
  await store.getState().authenticateWithPasskey({
    createNew: input.createNew,
    ...(input.email ? { email: input.email } : {}),
  })
  const state = store.getState()
  if (state.status !== 'CONNECTED') {
    throw new WalletSessionError(state.error?.message ?? 'Could not connect your wallet. Try again.')
  }
  return { isNewUser: state.isNewUser === true }
}

/** Makes a new passkey on this device and adds it to the signed-in account, with the step-up. */
export async function addPasskey(stepUp: StepUp): Promise<AddedPasskey> {
  const store = await loadSignerStore()
  return store.getState().addPasskey({ stepUp })
}

/** Removes one of the account's passkeys, with the step-up; the signer refuses the last way to sign in. */
export async function removePasskey(authenticatorId: string, stepUp: StepUp): Promise<void> {
  const store = await loadSignerStore()
  await store.getState().removePasskey(authenticatorId, stepUp)
}

/**
 * The text for a failed passkey prompt: a cancelled or timed-out browser prompt (NotAllowedError)
 * says so plainly instead of the browser's long sentence.
 */
export function describePasskeyError(error: unknown): string | undefined {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined
  const cause = typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined
  const causeName =
    typeof cause === 'object' && cause !== null ? (cause as { name?: unknown }).name : undefined
  if (name === 'NotAllowedError' || causeName === 'NotAllowedError') {
    return 'The passkey prompt was closed or timed out. Try again.'
  }
  if (name === 'InvalidStateError' || causeName === 'InvalidStateError') {
    return 'This device already has a passkey for this account.'
  }
  return undefined
}
