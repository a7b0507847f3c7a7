import type { SignerDatabase } from '../../db/signer-database.ts'
import { findAccountByUserId, type SignerAccount } from './find-account.ts'

/**
 * The account behind a verified session key. A key without an account cannot exist (the key
 * references the user, the wallet is created with the user), so absence is a server fault.
 *
 * Fails by rejecting with a plain Error (a 500) when the account is missing.
 */
export async function getAccountOrThrow(db: SignerDatabase, userId: string): Promise<SignerAccount> {
  const account = await findAccountByUserId(db, userId)
  if (account === undefined) throw new Error(`Session key of user ${userId} has no account`)
  return account
}
