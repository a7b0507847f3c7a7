import { mnemonicToSeedWebcrypto, validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { KeystoreError } from './keystore-error.ts'

/**
 * Turns a user's BIP-39 mnemonic into the 64-byte seed every account derives from (PBKDF2-HMAC-
 * SHA512, 2048 rounds, empty passphrase), after checking the words and checksum.
 *
 * Why: the keystore stores only the sealed mnemonic (it is also what an export shows); the seed
 * exists in memory just long enough to sign. WebCrypto's PBKDF2 keeps this at about a millisecond.
 *
 * Fails by throwing a {@link KeystoreError} `MNEMONIC_INVALID` for unknown words, a bad checksum
 * or a word count other than 12 or 24.
 */
export async function deriveWalletSeed(mnemonic: string): Promise<Uint8Array> {
  const wordCount = mnemonic.split(' ').length
  if ((wordCount !== 12 && wordCount !== 24) || !validateMnemonic(mnemonic, wordlist)) {
    throw new KeystoreError('MNEMONIC_INVALID', 'not a valid 12- or 24-word English BIP-39 mnemonic')
  }
  return mnemonicToSeedWebcrypto(mnemonic)
}
