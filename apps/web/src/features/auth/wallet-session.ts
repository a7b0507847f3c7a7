import type { SignerStore } from '@quicklinks/wallet/signer-store'
import type { AuthMethods } from '@quicklinks/wallet/signer-types'
import { smartAccountStorageKey } from '@quicklinks/wallet/smart-accounts/smart-account-store'
import { useEffect } from 'react'
import type { LocalAccount } from 'viem'
import { create } from 'zustand'
import { csrfCookieName, csrfHeaderName, csrfRefreshPath, readCookie } from '../../lib/api-client'
import { apiBaseUrl } from '../../lib/env'

/**
 * The web app's one door to the embedded wallet (packages/wallet). Screens call these functions
 * and read `useWalletStatus`, never the SDK directly, so the SDK's shape stays in one file. The
 * SDK (and the auth frame it creates) loads on first use, so public screens paint without it.
 */

export type WalletStatus = ReturnType<SignerStore['getState']>['status']
export type ExportKind = 'SEED_PHRASE' | 'PRIVATE_KEY'

/** A failure the user can act on; `message` is safe to show. */
export class WalletSessionError extends Error {
  override readonly name = 'WalletSessionError'
}

/**
 * How long logout waits for the SDK (revoke the session key at the signer, at most 2 s, then the
 * auth frame drops its keys) before it carries on; the SDK finishes in the background.
 */
const logoutFrameTimeoutMs = 3000

// Mirrors the SDK store's status and the signer user's Solana address, so components can
// subscribe before the SDK has loaded.
const useStatusMirror = create<{ status: WalletStatus; solanaAddress: string | null }>()(() => ({
  status: 'INITIALIZING',
  solanaAddress: null,
}))

let signerStore: Promise<SignerStore> | undefined

/**
 * Loads the SDK once and creates the signer store against this origin's /signer/v1, sending the
 * CSRF header the app server's plugin requires on every POST. A failed load is retried next time.
 */
export function loadSignerStore(): Promise<SignerStore> {
  signerStore ??= (async () => {
    const [{ createSignerStore }, { createSignerClient }] = await Promise.all([
      import('@quicklinks/wallet/signer-store'),
      import('@quicklinks/wallet/signer-client'),
    ])
    const client = createSignerClient({
      baseUrl: apiBaseUrl.length > 0 ? apiBaseUrl : window.location.origin,
      getHeaders: getCsrfHeaders,
    })
    const store = createSignerStore({ client })
    const mirror = (state: ReturnType<SignerStore['getState']>) =>
      useStatusMirror.setState({ status: state.status, solanaAddress: state.user?.solanaAddress ?? null })
    mirror(store.getState())
    store.subscribe(mirror)
    return store
  })().catch((error: unknown) => {
    signerStore = undefined
    throw error
  })
  return signerStore
}

async function getCsrfHeaders(): Promise<Record<string, string>> {
  let token = readCookie(csrfCookieName, document.cookie)
  if (token === undefined) {
    await fetch(`${apiBaseUrl}${csrfRefreshPath}`, {
      credentials: 'include',
      headers: { Accept: 'application/json' },
    })
    token = readCookie(csrfCookieName, document.cookie)
  }
  return token === undefined ? {} : { [csrfHeaderName]: token }
}

/** The embedded wallet's status (docs/signer.md#signer-status); loads the SDK on first use. */
export function useWalletStatus(): WalletStatus {
  useEffect(() => {
    loadSignerStore().catch((error: unknown) => console.error('Could not load the wallet', error))
  }, [])
  return useStatusMirror((state) => state.status)
}

/**
 * The signed-in wallet user's Solana address (base58), or null: signed out, not loaded yet, or an
 * account created before Solana addresses existed. Loads the SDK on first use.
 */
export function useWalletSolanaAddress(): string | null {
  useEffect(() => {
    loadSignerStore().catch((error: unknown) => console.error('Could not load the wallet', error))
  }, [])
  return useStatusMirror((state) => state.solanaAddress)
}

/** Sends a sign-in code (or a magic link with the code) to an e-mail address. Rejects with the signer's message. */
export async function startEmailSignIn(email: string, mode: 'otp' | 'magicLink'): Promise<void> {
  const store = await loadSignerStore()
  await store.getState().authenticateWithEmail({ email, mode })
}

/** Sends a sign-in code by SMS to an E.164 number. Rejects with the signer's message. */
export async function startSmsSignIn(phone: string): Promise<void> {
  const store = await loadSignerStore()
  await store.getState().authenticateWithSms({ phone })
}

/**
 * Submits the code; resolves once the wallet is connected, with whether this sign-in created the
 * account, or with `mfaRequired` when the account asks for its authenticator code first
 * (submitAuthenticatorCode in wallet-mfa.ts). Rejects with the signer's message (wrong code with
 * tries left, dead code).
 */
export async function submitSignInCode(code: string): Promise<SignInOutcome> {
  const store = await loadSignerStore()
  await store.getState().submitOtpCode(code)
  return readConnected(store)
}

/** Opens a magic link's credential bundle; resolves once the wallet is connected (or with `mfaRequired`). */
export async function completeMagicLinkSignIn(bundle: string, orgId: string): Promise<SignInOutcome> {
  const store = await loadSignerStore()
  await store.getState().completeMagicLink({ bundle, orgId })
  return readConnected(store)
}

/** How a first-factor sign-in ended: connected, or waiting for the authenticator code. */
export type SignInOutcome = { isNewUser: boolean; mfaRequired: boolean }

function readConnected(store: SignerStore): SignInOutcome {
  const state = store.getState()
  if (state.status === 'AWAITING_MFA_AUTH') return { isNewUser: false, mfaRequired: true }
  if (state.status !== 'CONNECTED') {
    throw new WalletSessionError(state.error?.message ?? 'Could not connect your wallet. Try again.')
  }
  return { isNewUser: state.isNewUser === true, mfaRequired: false }
}

/** The connected wallet as a viem account (it signs through the signer service). */
export async function getWalletAccount(): Promise<LocalAccount> {
  const store = await loadSignerStore()
  return store.getState().toViemAccount()
}

/**
 * Ends the wallet session: forgets the smart accounts' persisted state, the SDK has the signer
 * revoke the session key (so a copy of it stops working at once), clears its persisted state, sets DISCONNECTED and asks the auth frame to drop
 * its keys (waited for at most 3 s). Never rejects (logout errors are logged; docs/product.md#logout).
 */
export async function logoutWallet(): Promise<void> {
  // The smart accounts' persisted state names this user's addresses: not for the next one.
  try {
    globalThis.localStorage?.removeItem(smartAccountStorageKey)
  } catch {
    // Storage blocked: nothing was stored either.
  }
  try {
    const store = await loadSignerStore()
    await Promise.race([
      store.getState().logout(),
      new Promise<void>((resolve) => setTimeout(resolve, logoutFrameTimeoutMs)),
    ])
  } catch (error) {
    console.error('Wallet logout failed', error)
  }
}

/**
 * Shows the seed phrase or private key inside the export frame, which the SDK puts into
 * `container`, drawn in the app's current theme. Rejects with the SDK's message.
 */
export async function exportWalletInto(
  container: HTMLElement,
  kind: ExportKind,
  theme: 'light' | 'dark',
): Promise<void> {
  const store = await loadSignerStore()
  await store.getState().exportWallet({ container, kind, theme })
}

/** The account's sign-in methods (docs/signer.md#list-auth-methods). */
export type WalletAuthMethods = AuthMethods

/** The channel of a sign-in contact: an e-mail address or an E.164 phone number. */
export type ContactChannel = 'email' | 'sms'

/**
 * Reads the signed-in account's sign-in methods through a stamped `list-auth-methods`. Rejects
 * with a WalletSessionError when the wallet is not connected, or with the signer's message.
 */
export async function listWalletAuthMethods(): Promise<WalletAuthMethods> {
  const store = await loadSignerStore()
  const { user } = store.getState()
  if (user === null) throw new WalletSessionError('Your wallet session has ended. Sign in again.')
  return store.client.listAuthMethods(store.stamper, user.orgId)
}

/** Sends a verification code to a new or current contact; resolves with its otpId. */
export async function sendContactCode(channel: ContactChannel, contact: string): Promise<string> {
  const store = await loadSignerStore()
  return (await store.getState().sendVerificationCode({ channel, contact })).otpId
}

/** Trades a contact's code for the verification token a contact change needs. */
export async function verifyContactCode(otpId: string, code: string): Promise<string> {
  const store = await loadSignerStore()
  return (await store.getState().verifyCode({ otpId, code })).verificationToken
}

/**
 * Moves the account's sign-in e-mail or phone to `contact`, proven by its token (and the current
 * contact's token when there is one); the frames origin builds and stamps the change. Rejects
 * with the SDK's or the signer's message (an address of another account, a spent proof).
 */
export async function changeContact(input: {
  channel: ContactChannel
  contact: string
  verificationToken: string
  previousContactVerificationToken?: string
  /** The authenticator app's current code, when the account has one (the step-up's second part). */
  totpCode?: string
}): Promise<void> {
  const store = await loadSignerStore()
  const { channel, contact, ...proof } = input
  if (channel === 'email') await store.getState().setEmail({ email: contact, ...proof })
  else await store.getState().setPhone({ phone: contact, ...proof })
}

/**
 * Takes the account's sign-in e-mail or phone off, proven by a token for that contact
 * (docs/signer.md#contact-removal), plus the authenticator code when the account has an app. Rejects with the signer's message, e.g. when it is the last
 * way to sign in.
 */
export async function removeContact(
  channel: ContactChannel,
  proof: { verificationToken: string; totpCode?: string },
): Promise<void> {
  const store = await loadSignerStore()
  if (channel === 'email') await store.getState().removeEmail(proof)
  else await store.getState().removePhone(proof)
}
