import { bytesToHex } from '@noble/hashes/utils.js'
import { HDKey } from '@scure/bip32'
import type { Address } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { KeystoreError } from './keystore-error.ts'

/** The EVM account path of every wallet: BIP-44 coin 60, account 0, external chain, index 0. */
export const evmDerivationPath = "m/44'/60'/0'/0/0"

/** The derived EVM account. Wipe `privateKey` once done with it. */
export type EvmAccountKey = { address: Address; privateKey: Uint8Array }

/**
 * Derives the wallet's EVM account (BIP-32 secp256k1 at m/44'/60'/0'/0/0) from a BIP-39 seed and
 * returns its EIP-55 checksummed address and private key.
 *
 * Why: the same path MetaMask and viem's `mnemonicToAccount` use, so an exported seed phrase
 * opens the same address anywhere.
 *
 * Fails by throwing a {@link KeystoreError} `SEED_INVALID` when the seed is not 16–64 bytes or
 * derives an invalid key (probability ~2^-127).
 */
export function deriveEvmAccount(seed: Uint8Array): EvmAccountKey {
  if (seed.length < 16 || seed.length > 64)
    throw new KeystoreError('SEED_INVALID', 'seed must be 16 to 64 bytes')
  let node: HDKey
  try {
    node = HDKey.fromMasterSeed(seed).derive(evmDerivationPath)
  } catch (error) {
    throw new KeystoreError('SEED_INVALID', 'BIP-32 derivation failed', error)
  }
  const privateKey = node.privateKey
  if (privateKey === null)
    throw new KeystoreError('SEED_INVALID', 'BIP-32 derivation produced no private key')
  const result = {
    address: privateKeyToAddress(`0x${bytesToHex(privateKey)}`),
    privateKey: Uint8Array.from(privateKey),
  }
  node.wipePrivateData()
  return result
}
