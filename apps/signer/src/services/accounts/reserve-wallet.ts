import { randomUUID } from 'node:crypto'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { eq } from 'drizzle-orm'
import { generateWallet } from '../../crypto/keystore/generate-wallet.ts'
import { sealSecret } from '../../crypto/keystore/seal-secret.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { type SignerWalletReservation, signerWalletReservations } from '../../db/signer-schema.ts'
import { walletMnemonicPurpose } from './create-account.ts'

/** What `signup` answers of a reservation: the ids and addresses the account will have. */
export type ReservedWallet = { userId: string; evmAddress: string; solanaAddress: string }

/**
 * Reserves a wallet for a sign-up code: a fresh mnemonic, sealed under the master key and bound to
 * a fresh user id, stored with its addresses against `otpId`. If that code (or its link) signs a
 * contact in that still has no account, the account takes this user id and wallet (createAccount);
 * otherwise the reservation is dropped. It is made alike for every contact, with or without an
 * account, so the answer and its cost reveal nothing (docs/decisions/0019). Creates no user and no
 * session key: nothing can sign with it.
 *
 * Fails by rejecting on a database error (e.g. the code's row is gone) or a keystore error.
 */
export async function reserveWallet(
  db: SignerDatabase,
  input: { masterKey: Uint8Array; otpId: string },
): Promise<ReservedWallet> {
  const userId = randomUUID()
  const wallet = await generateWallet()
  const sealedMnemonic = await sealSecret({
    keyEncryptionKey: input.masterKey,
    userId,
    purpose: walletMnemonicPurpose,
    plaintext: utf8ToBytes(wallet.mnemonic),
  })
  await db.insert(signerWalletReservations).values({
    otpId: input.otpId,
    userId,
    sealedMnemonic,
    evmAddress: wallet.evmAddress,
    solanaAddress: wallet.solanaAddress,
  })
  return { userId, evmAddress: wallet.evmAddress, solanaAddress: wallet.solanaAddress }
}

/** The wallet reserved for a code, or undefined (a code from `auth`, or already swept). Rejects on a database error. */
export async function findWalletReservation(
  db: SignerDatabase,
  otpId: string,
): Promise<SignerWalletReservation | undefined> {
  const [row] = await db
    .select()
    .from(signerWalletReservations)
    .where(eq(signerWalletReservations.otpId, otpId))
  return row
}
