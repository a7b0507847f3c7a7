import type { LocalAccount } from 'viem'
import { create } from 'zustand'

/**
 * The web app's one door to the embedded wallet (packages/wallet). Screens call these functions
 * and read `useWalletStatus`, never the SDK directly, so the SDK's shape stays in one file.
 * PLACEHOLDER until the SDK lands: every action fails with a clear message.
 */

export type WalletStatus =
  | 'INITIALIZING'
  | 'DISCONNECTED'
  | 'CONNECTED'
  | 'AUTHENTICATING_EMAIL'
  | 'AUTHENTICATING_PASSKEY'
  | 'AUTHENTICATING_OAUTH'
  | 'AUTHENTICATING_JWT'
  | 'AWAITING_EMAIL_AUTH'
  | 'AWAITING_SMS_AUTH'
  | 'AWAITING_OTP_AUTH'
  | 'AWAITING_MFA_AUTH'

export type ExportKind = 'SEED_PHRASE' | 'PRIVATE_KEY'

/** A failure the user can act on; `message` is safe to show (the signer's own text). */
export class WalletSessionError extends Error {
  override readonly name = 'WalletSessionError'
}

type PlaceholderState = { status: WalletStatus }
const usePlaceholderStore = create<PlaceholderState>()(() => ({ status: 'DISCONNECTED' }))

const unavailable = (): never => {
  throw new WalletSessionError('Sign-in is being set up. Try again shortly.')
}

/** The embedded wallet's status (SPEC §4 "Signer status"). */
export function useWalletStatus(): WalletStatus {
  return usePlaceholderStore((state) => state.status)
}

/** Sends a sign-in code (or link) to an e-mail address. Rejects with the signer's message. */
export async function startEmailSignIn(_email: string, _mode: 'otp' | 'magicLink'): Promise<void> {
  unavailable()
}

/** Sends a sign-in code by SMS to an E.164 number. Rejects with the signer's message. */
export async function startSmsSignIn(_phone: string): Promise<void> {
  unavailable()
}

/** Submits the code; resolves once the wallet is connected. Rejects with the signer's message. */
export async function submitSignInCode(_code: string): Promise<{ isNewUser: boolean }> {
  return unavailable()
}

/** Opens a magic link's credential bundle; resolves once the wallet is connected. */
export async function completeMagicLinkSignIn(
  _bundle: string,
  _orgId: string,
): Promise<{ isNewUser: boolean }> {
  return unavailable()
}

/** The connected wallet as a viem account (signs through the signer service). */
export async function getWalletAccount(): Promise<LocalAccount> {
  return unavailable()
}

/** Ends the wallet session and clears its persisted state; never throws (SPEC: logged only). */
export async function logoutWallet(): Promise<void> {}

/** Shows the seed phrase or private key inside the export frame placed in `container`. */
export async function exportWalletInto(_container: HTMLElement, _kind: ExportKind): Promise<void> {
  unavailable()
}
