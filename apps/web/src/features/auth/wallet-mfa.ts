import type { MultiFactor, MultiFactorEnrolment } from '@quicklinks/wallet/multi-factor-types'
import type { StepUp } from '@quicklinks/wallet/signer-types'
import { loadSignerStore, WalletSessionError } from './wallet-session'

/**
 * The web app's door to the wallet's second factor (TOTP, docs/signer.md#multi-factor): the
 * sign-in's authenticator-code step and Settings' two-factor section call these, never the SDK.
 */

export type TwoFactorApp = MultiFactor
export type TwoFactorEnrolment = MultiFactorEnrolment

/**
 * Completes a sign-in that waits for its authenticator code (AWAITING_MFA_AUTH); resolves once the
 * wallet is connected. Rejects with the SDK's or the signer's message (a wrong or used code, an
 * expired sign-in, the lock after too many wrong codes).
 */
export async function submitAuthenticatorCode(code: string): Promise<{ isNewUser: boolean }> {
  const store = await loadSignerStore()
  await store.getState().validateMultiFactors({ multiFactorCode: code })
  const state = store.getState()
  if (state.status !== 'CONNECTED') {
    throw new WalletSessionError(state.error?.message ?? 'Could not connect your wallet. Try again.')
  }
  return { isNewUser: state.isNewUser === true }
}

/** The account's confirmed authenticator apps. Rejects when the wallet is not connected. */
export async function listTwoFactorApps(): Promise<TwoFactorApp[]> {
  const store = await loadSignerStore()
  return store.getState().getMfaFactors()
}

/** Starts adding an authenticator app: the secret and its otpauth URI, to show once. */
export async function startTwoFactorEnrolment(stepUp: StepUp): Promise<TwoFactorEnrolment> {
  const store = await loadSignerStore()
  return store.getState().addMfa({ multiFactorType: 'totp', stepUp })
}

/** Confirms the new app with its first code; resolves with the confirmed apps. */
export async function confirmTwoFactorApp(multiFactorId: string, code: string): Promise<TwoFactorApp[]> {
  const store = await loadSignerStore()
  return store.getState().verifyMfa({ multiFactorId, multiFactorCode: code })
}

/** Removes an authenticator app; resolves with those left. */
export async function removeTwoFactorApp(multiFactorId: string, stepUp: StepUp): Promise<TwoFactorApp[]> {
  const store = await loadSignerStore()
  return store.getState().removeMfa({ multiFactorIds: [multiFactorId], stepUp })
}
