import { randomUUID } from 'node:crypto'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { eq } from 'drizzle-orm'
import { generateWallet } from '../../crypto/keystore/generate-wallet.ts'
import { sealSecret } from '../../crypto/keystore/seal-secret.ts'
import { lockForTransaction } from '../../db/lock-for-transaction.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import {
  type SignerWalletReservation,
  signerAuthMethods,
  signerOrganizations,
  signerUsers,
  signerWalletReservations,
  signerWallets,
} from '../../db/signer-schema.ts'
import { findAccountBySignInMethod, type SignerAccount, type SignInMethod } from './find-account.ts'

/** The seal-secret purpose of wallet mnemonics. */
export const walletMnemonicPurpose = 'wallet-mnemonic'

/**
 * Returns the account of a sign-in method (an e-mail or phone, or a JWT's issuer and subject),
 * creating it when there is none: an organization (with `preferredOrganizationId`, a contact's
 * pseudonymous orgId, when free, else a random one), a user (whose e-mail or phone is the
 * contact's; a JWT user has neither), the auth method and
 * a fresh wallet whose mnemonic is sealed under the master key, bound to the user id. With a
 * `reservation` (the wallet `signup` reserved for the code being used) the new account takes its
 * user id and wallet instead, so it has the addresses `signup` answered; the reservation is
 * deleted either way. One transaction, serialised per method, so two first sign-ins at once end
 * with one account.
 *
 * Fails by rejecting on a database error (nothing is written) or a keystore error.
 */
export async function createAccount(
  db: SignerDatabase,
  input: {
    masterKey: Uint8Array
    method: SignInMethod
    preferredOrganizationId: string
    reservation?: SignerWalletReservation
  },
): Promise<{ account: SignerAccount; isCreated: boolean }> {
  const { method, reservation } = input
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, `signer-account:${method.type}:${method.identifier}`)
    // Spent with its code whatever happens: a contact that has an account never uses it.
    if (reservation !== undefined) {
      await tx.delete(signerWalletReservations).where(eq(signerWalletReservations.otpId, reservation.otpId))
    }
    const existing = await findAccountBySignInMethod(tx, method)
    if (existing) return { account: existing, isCreated: false }

    // The pseudonymous id is taken only if an account that signed up with this contact moved on
    // to another one; a random UUID has the same shape.
    const [preferred] = await tx
      .insert(signerOrganizations)
      .values({ id: input.preferredOrganizationId })
      .onConflictDoNothing()
      .returning({ id: signerOrganizations.id })
    const organizationId = preferred?.id ?? randomUUID()
    if (preferred === undefined) await tx.insert(signerOrganizations).values({ id: organizationId })

    const userId = reservation?.userId ?? randomUUID()
    const email = method.type === 'email' ? method.identifier : null
    const phone = method.type === 'sms' ? method.identifier : null
    await tx.insert(signerUsers).values({ id: userId, organizationId, email, phone })
    await tx.insert(signerAuthMethods).values({
      userId,
      type: method.type,
      identifier: method.identifier,
      data: method.data ?? null,
    })

    const wallet =
      reservation === undefined
        ? await generateSealedWallet(input.masterKey, userId)
        : {
            sealedMnemonic: reservation.sealedMnemonic,
            evmAddress: reservation.evmAddress,
            solanaAddress: reservation.solanaAddress,
          }
    const walletId = randomUUID()
    await tx.insert(signerWallets).values({
      id: walletId,
      userId,
      sealedMnemonic: wallet.sealedMnemonic,
      evmAddress: wallet.evmAddress,
      solanaAddress: wallet.solanaAddress,
    })
    return {
      account: {
        organizationId,
        userId,
        email,
        phone,
        walletId,
        evmAddress: wallet.evmAddress,
        solanaAddress: wallet.solanaAddress,
      },
      isCreated: true,
    }
  })
}

async function generateSealedWallet(masterKey: Uint8Array, userId: string) {
  const wallet = await generateWallet()
  const sealedMnemonic = await sealSecret({
    keyEncryptionKey: masterKey,
    userId,
    purpose: walletMnemonicPurpose,
    plaintext: utf8ToBytes(wallet.mnemonic),
  })
  return { sealedMnemonic, evmAddress: wallet.evmAddress, solanaAddress: wallet.solanaAddress }
}
