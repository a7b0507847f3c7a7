import { eq } from 'drizzle-orm'
import { deriveWalletSeed } from '../../crypto/keystore/derive-wallet-seed.ts'
import { openSecret } from '../../crypto/keystore/open-secret.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerWallets } from '../../db/signer-schema.ts'
import { walletMnemonicPurpose } from '../accounts/create-account.ts'

/** The decrypted wallet secret, alive only inside `useWalletSecret`'s callback. */
export type WalletSecret = { mnemonic: string; seed: Uint8Array }

/**
 * Opens a user's sealed mnemonic (bound to their user id), derives the BIP-39 seed, hands both to
 * `use`, and wipes the seed and the decrypted bytes afterwards, whatever `use` does. This is the
 * only place seeds exist, and only in memory.
 *
 * Fails by rejecting with a KeystoreError when the record does not open (another master key, an
 * altered record, another user's record), an Error when the user has no wallet, or with what `use`
 * throws.
 */
export async function useWalletSecret<T>(
  db: SignerDatabase,
  input: { masterKey: Uint8Array; userId: string },
  use: (secret: WalletSecret) => Promise<T>,
): Promise<T> {
  const [wallet] = await db
    .select({ sealedMnemonic: signerWallets.sealedMnemonic })
    .from(signerWallets)
    .where(eq(signerWallets.userId, input.userId))
  if (wallet === undefined) throw new Error(`User ${input.userId} has no wallet`)
  const mnemonicBytes = await openSecret({
    keyEncryptionKey: input.masterKey,
    userId: input.userId,
    purpose: walletMnemonicPurpose,
    sealed: wallet.sealedMnemonic,
  })
  const mnemonic = new TextDecoder().decode(mnemonicBytes)
  mnemonicBytes.fill(0)
  const seed = await deriveWalletSeed(mnemonic)
  try {
    return await use({ mnemonic, seed })
  } finally {
    seed.fill(0)
  }
}
