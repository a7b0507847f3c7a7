import { generateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import type { Address } from 'viem'
import { deriveEvmAccount } from './derive-evm-account.ts'
import { deriveSolanaAccount } from './derive-solana-account.ts'
import { deriveWalletSeed } from './derive-wallet-seed.ts'

/** A new wallet: the secret to seal and the two public addresses to store beside it. */
export type GeneratedWallet = { mnemonic: string; evmAddress: Address; solanaAddress: string }

/**
 * Creates a user's wallet: a fresh BIP-39 mnemonic from the CSPRNG (12 words = 128 bits of
 * entropy by default, or 24 words = 256 bits), and the addresses of its EVM account
 * (m/44'/60'/0'/0/0) and Solana account (m/44'/501'/0'/0').
 *
 * Why: one seed per user backs every chain, and its phrase is what the user can export.
 * The caller seals `mnemonic` at once (see `sealSecret`) and keeps only the addresses in clear.
 *
 * Fails only if the platform has no CSPRNG (the underlying library throws).
 */
export async function generateWallet(options: { wordCount?: 12 | 24 } = {}): Promise<GeneratedWallet> {
  const mnemonic = generateMnemonic(wordlist, options.wordCount === 24 ? 256 : 128)
  const seed = await deriveWalletSeed(mnemonic)
  try {
    const evm = deriveEvmAccount(seed)
    const solana = deriveSolanaAccount(seed)
    evm.privateKey.fill(0)
    solana.privateKey.fill(0)
    return { mnemonic, evmAddress: evm.address, solanaAddress: solana.address }
  } finally {
    seed.fill(0)
  }
}
