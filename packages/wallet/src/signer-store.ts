import { AppError } from '@quicklinks/core/app-error'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { createContactActions } from './contact-actions.ts'
import { createFrameStamper } from './create-frame-stamper.ts'
import { createExportActions } from './export-actions.ts'
import { createMfaActions } from './mfa-actions.ts'
import type { MfaRequiredResult } from './multi-factor-types.ts'
import { createOAuthActions } from './oauth-actions.ts'
import { createPasskeyActions } from './passkey-actions.ts'
import { readPersistedSession, type SessionStorageLike, signerStorageKey } from './persisted-session.ts'
import { createSessionKeeper, disconnectedFields } from './session-keeper.ts'
import { createSignInActions } from './sign-in-actions.ts'
import type { SignerClient } from './signer-client.ts'
import type { SignerState } from './signer-state.ts'
import type { PendingSignIn, SignerStoreContext } from './signer-store-context.ts'
import type { SignerUser } from './signer-types.ts'
import { createSigningActions } from './signing-actions.ts'
import type { Stamper } from './stamper.ts'
import { createWalletError, toStoredError } from './wallet-error.ts'

export type { SignerState }

/** Sessions last 900 000 ms by default (docs/product.md#constants). */
export const defaultSessionExpirationMs = 900_000

/** Message of the error thrown when an action needs a signed-in user and there is none. */
export const notAuthenticatedMessage = 'Signer not authenticated. Please authenticate to use this signer'

export type SignerStore = StoreApi<SignerState> & {
  readonly client: SignerClient
  readonly stamper: Stamper
  /** Stops the expiry timer and the cross-tab listener. */
  destroy(): void
}

export type SignerStoreOptions = {
  client: SignerClient
  /** Default: the auth frame (createFrameStamper) at signer-config's `authFrameUrl`. */
  stamper?: Stamper
  /** Default: `globalThis.localStorage` when present; null keeps the session in memory only. */
  storage?: SessionStorageLike | null
  storageKey?: string
  /** Wallet session length (default 900 000 ms); the signer is asked for floor(ms / 1000) s. */
  sessionExpirationMs?: number
  /** Where `storage` events arrive from other tabs (default `globalThis.window`); null: none. */
  eventTarget?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null
  now?: () => number
}

/**
 * Creates the embedded-wallet signer store (zustand vanilla; in React: `useStore(store, selector)`),
 * with the transitions of docs/signer.md#signer-status. It initialises at once from the persisted session:
 * CONNECTED if a stored, unexpired session user exists, else DISCONNECTED. At the session's
 * expiry it disconnects, and it follows sign-ins and logouts in other tabs (`storage` events).
 *
 * Every action that fails stores `{name, message}` in `error` and rethrows, so a caller can both
 * await it and render the store. The actions live in their modules (sign-in-actions.ts,
 * passkey-actions.ts, contact-actions.ts, mfa-actions.ts, oauth-actions.ts, export-actions.ts,
 * signing-actions.ts); this composes them over one {@link SignerStoreContext}.
 */
export function createSignerStore(options: SignerStoreOptions): SignerStore {
  const { client } = options
  const now = options.now ?? Date.now
  const storageKey = options.storageKey ?? signerStorageKey
  const storage =
    options.storage === undefined
      ? (globalThis.localStorage as SessionStorageLike | undefined)
      : (options.storage ?? undefined)
  const eventTarget =
    options.eventTarget === undefined
      ? typeof window === 'undefined'
        ? undefined
        : window
      : (options.eventTarget ?? undefined)
  const expirationSeconds = Math.floor((options.sessionExpirationMs ?? defaultSessionExpirationMs) / 1000)
  const stamper =
    options.stamper ??
    createFrameStamper({ frameUrl: async () => (await client.getSignerConfig()).authFrameUrl })

  let pendingSignIn: PendingSignIn | null = null
  const initial = storage ? readPersistedSession(storage, storageKey, now()) : null
  const store = createStore<SignerState>()((set, get) => {
    const fail = (error: unknown): never => {
      set({ error: toStoredError(error), status: 'DISCONNECTED' })
      throw error
    }

    const requireUser = (message = notAuthenticatedMessage): SignerUser => {
      const { user } = get()
      if (user === null) throw createWalletError(message, { code: 'UNAUTHORIZED' })
      return user
    }

    const withSession = async <T>(call: () => Promise<T>): Promise<T> => {
      try {
        return await call()
      } catch (error) {
        if (isSessionRefused(error)) session.disconnect({ persist: true })
        throw error
      }
    }

    const awaitMfa = (answer: MfaRequiredResult, pending: PendingSignIn): void => {
      const mfaFactorId = answer.multiFactors[0]?.multiFactorId ?? null
      pendingSignIn = { ...pending, encryptedPayload: answer.encryptedPayload, mfaFactorId }
      set({ status: 'AWAITING_MFA_AUTH', mfaStatus: { mfaRequired: true, mfaFactorId } })
    }

    const finishLogin = async (input: { bundle: string; orgId: string }): Promise<void> => {
      const expiresAtMs = now() + expirationSeconds * 1000
      try {
        await stamper.injectCredentialBundle({
          bundle: input.bundle,
          organizationId: input.orgId,
          expiresAtMs,
        })
      } catch (error) {
        throw createWalletError('Failed to inject credential bundle', { cause: error })
      }
      const whoami = await client.whoami(stamper, input.orgId)
      pendingSignIn = null
      const user: SignerUser = {
        orgId: whoami.orgId,
        userId: whoami.userId,
        address: whoami.address,
        solanaAddress: whoami.solanaAddress ?? null,
        email: whoami.email ?? null,
        phone: whoami.phone ?? null,
      }
      session.persist(user, expiresAtMs)
      session.connect(user, expiresAtMs)
      // An account-linking prompt whose e-mail code this login used: the signer linked it then.
      oauth.clearLinkingPrompt()
    }

    const context: SignerStoreContext = {
      client,
      stamper,
      expirationSeconds,
      get,
      set,
      requireUser,
      withSession,
      fail,
      getPendingSignIn: () => pendingSignIn,
      setPendingSignIn: (pending) => {
        pendingSignIn = pending
      },
      awaitMfa,
      finishLogin,
      updateUser: (user) => session.updateUser(user),
      disconnect: (input) => session.disconnect(input),
    }

    const oauth = createOAuthActions({
      client,
      stamper,
      expirationSeconds,
      get,
      set,
      finishLogin,
      awaitMfa: (answer) =>
        awaitMfa(answer, { orgId: answer.orgId, otpId: '', channel: 'email', isNewUser: false }),
      awaitEmailCode: ({ orgId, otpId }) => {
        pendingSignIn = { orgId, otpId, channel: 'email', isNewUser: false }
      },
      withSession,
    })

    return {
      ...disconnectedFields,
      status: 'INITIALIZING',
      error: null,
      ...createSignInActions(context),
      ...createPasskeyActions(context),
      ...createContactActions(context),
      ...createMfaActions(context),
      ...createExportActions(context),
      ...createSigningActions(context),
      loginWithOAuth: (params) => oauth.loginWithOAuth(params),
      completeOAuthRedirect: (result) => oauth.completeOAuthRedirect(result),
      addOauthProvider: (params) => oauth.addOauthProvider(params),
      removeOauthProvider: (input) => oauth.removeOauthProvider(input),
    }
  })

  const session = createSessionKeeper({
    storage,
    storageKey,
    eventTarget,
    now,
    get: store.getState,
    set: store.setState,
  })
  session.start(initial)

  return Object.assign(store, { client, stamper, destroy: session.destroy })
}

/**
 * Whether the signer refused the session itself: a 401 whose reason is a stamp or key refusal
 * (STAMP_…, SIGNATURE_…, TIMESTAMP_…, KEY_…) or names none. A 401 with another reason (a contact
 * change's spent verification token) refuses that request only; the session goes on.
 */
function isSessionRefused(error: unknown): boolean {
  if (!(error instanceof AppError) || error.code !== 'UNAUTHORIZED') return false
  const reason = error.details?.reason
  return typeof reason !== 'string' || /^(STAMP|SIGNATURE|TIMESTAMP|KEY)_/.test(reason)
}
