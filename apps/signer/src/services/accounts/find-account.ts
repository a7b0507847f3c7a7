import { and, eq } from 'drizzle-orm'
import { getAddress, isAddress } from 'viem'
import type { SignerDatabase } from '../../db/signer-database.ts'
import {
  type SignerAuthMethodType,
  signerAuthMethods,
  signerUsers,
  signerWallets,
} from '../../db/signer-schema.ts'
import type { Contact } from '../contacts/contact-schemas.ts'

/** A user as the routes see it: ids, contacts and the public half of the wallet. */
export type SignerAccount = {
  organizationId: string
  userId: string
  email: string | null
  phone: string | null
  walletId: string
  /** EIP-55 checksummed. */
  evmAddress: string
  solanaAddress: string
}

const accountColumns = {
  organizationId: signerUsers.organizationId,
  userId: signerUsers.id,
  email: signerUsers.email,
  phone: signerUsers.phone,
  walletId: signerWallets.id,
  evmAddress: signerWallets.evmAddress,
  solanaAddress: signerWallets.solanaAddress,
}

/**
 * A way to sign in as `signer_auth_methods` keys it: an e-mail or SMS contact (its channel and
 * normalised address), or a custom JWT (`jwt`, `{issuer}|{subject}`).
 */
export type SignInMethod = {
  type: SignerAuthMethodType
  identifier: string
  /** Kept in the row's `data` when the method is added (a linked provider's id and e-mail). */
  data?: Record<string, unknown>
}

/** The sign-in method of an e-mail or phone. */
export function toSignInMethod(contact: Contact): SignInMethod {
  return { type: contact.channel, identifier: contact.address }
}

/** The account that signs in with this method, or undefined. Rejects on a database error. */
export async function findAccountBySignInMethod(
  db: SignerDatabase,
  method: SignInMethod,
): Promise<SignerAccount | undefined> {
  const [row] = await db
    .select(accountColumns)
    .from(signerAuthMethods)
    .innerJoin(signerUsers, eq(signerUsers.id, signerAuthMethods.userId))
    .innerJoin(signerWallets, eq(signerWallets.userId, signerUsers.id))
    .where(and(eq(signerAuthMethods.type, method.type), eq(signerAuthMethods.identifier, method.identifier)))
  return row
}

/** The account that signs in with this e-mail or phone, or undefined. Rejects on a database error. */
export async function findAccountByContact(
  db: SignerDatabase,
  contact: Contact,
): Promise<SignerAccount | undefined> {
  return findAccountBySignInMethod(db, toSignInMethod(contact))
}

/** The account of a user id, or undefined. Rejects on a database error. */
export async function findAccountByUserId(
  db: SignerDatabase,
  userId: string,
): Promise<SignerAccount | undefined> {
  const [row] = await db
    .select(accountColumns)
    .from(signerUsers)
    .innerJoin(signerWallets, eq(signerWallets.userId, signerUsers.id))
    .where(eq(signerUsers.id, userId))
  return row
}

/**
 * The account whose wallet has this EVM address (any case), or undefined (also for a malformed address). The app server reads the
 * user's e-mail through it at SIWE login. Rejects on a database error.
 */
export async function findAccountByEvmAddress(
  db: SignerDatabase,
  address: string,
): Promise<SignerAccount | undefined> {
  if (!isAddress(address, { strict: false })) return undefined
  // Stored checksummed, so the unique index serves the lookup.
  const [row] = await db
    .select(accountColumns)
    .from(signerWallets)
    .innerJoin(signerUsers, eq(signerUsers.id, signerWallets.userId))
    .where(eq(signerWallets.evmAddress, getAddress(address)))
  return row
}
