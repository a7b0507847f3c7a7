import type { Address } from 'viem'
import { createSiweMessage } from 'viem/siwe'

/** Chain the app session is bound to: the default chain, base (docs/product.md#app-session). */
export const siweChainId = 8453
export const siweStatement = 'Sign in to Quick Links.'

export type BuildSiweMessageInput = {
  /** The embedded wallet's EVM address. */
  address: Address
  /** The single-use nonce from GET /api/auth/nonce. */
  nonce: string
  /** The page's origin, e.g. `http://localhost:3000`; its host is the SIWE domain. */
  origin: string
  issuedAt?: Date
}

/**
 * Builds the EIP-4361 message the embedded wallet signs to open an app session. The domain is the
 * page's host and the URI its origin, so the server (which checks both against its public origin)
 * refuses a message made for another site. Throws when the origin is no URL or the address is not
 * a valid EVM address (viem's own error).
 */
export function buildSiweMessage({
  address,
  nonce,
  origin,
  issuedAt = new Date(),
}: BuildSiweMessageInput): string {
  const url = new URL(origin)
  return createSiweMessage({
    address,
    chainId: siweChainId,
    domain: url.host,
    nonce,
    uri: url.origin,
    version: '1',
    statement: siweStatement,
    issuedAt,
  })
}
