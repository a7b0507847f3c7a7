import { nonceResponseSchema, userResponseSchema } from '@quicklinks/core/api/auth'
import type { Address, Hex } from 'viem'
import { type ApiClient, api } from '../../lib/api-client'
import { setOfflineQueueOwner } from '../../lib/offline-queue'
import { buildSiweMessage } from './build-siwe-message'
import type { SessionUser } from './session'

/** What the app session needs from a wallet: its address and a personal_sign. */
export type SiweSigner = {
  address: Address
  signMessage: (args: { message: string }) => Promise<Hex>
}

export type SignInWithWalletOptions = {
  client?: ApiClient
  /** The page's origin; the SIWE domain and URI come from it. */
  origin?: string
}

/**
 * Opens the app session with a wallet (docs/product.md#app-session): GET /api/auth/nonce, an
 * EIP-4361 message signed by the wallet, POST /api/auth/login. Resolves with the signed-in user,
 * whom the offline queue then belongs to: another user's queued writes are dropped unsent.
 * Rejects with the API client's AppError when the server refuses (bad signature, used nonce), or
 * with the wallet's own error when signing fails.
 */
export async function signInWithWallet(
  signer: SiweSigner,
  { client = api, origin = window.location.origin }: SignInWithWalletOptions = {},
): Promise<SessionUser> {
  const nonceAnswer = await client.request('/api/auth/nonce', nonceResponseSchema, {
    fallbackMessage: 'Could not start signing in. Try again.',
  })
  const message = buildSiweMessage({ address: signer.address, nonce: nonceAnswer.data.nonce, origin })
  const signature = await signer.signMessage({ message })
  const login = await client.request('/api/auth/login', userResponseSchema, {
    method: 'POST',
    body: { message, signature },
    queueWhenOffline: false,
    fallbackMessage: 'Could not sign you in. Try again.',
  })
  setOfflineQueueOwner(login.data.id)
  return login.data
}
