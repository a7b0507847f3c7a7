import { type HDAccount, mnemonicToAccount } from 'viem/accounts'
import { devnetMnemonic } from './devnet-chains.ts'

/** Accounts already derived, by index: one derivation per index per process. */
const derived = new Map<number, HDAccount>()

/**
 * Account `addressIndex` of the devnet's public test mnemonic. Deriving one runs BIP-39's PBKDF2
 * (2,048 rounds of HMAC-SHA512) and BIP-32, tens of milliseconds of CPU; workers that read their
 * key every round made that most of an idle server's CPU, so each index is derived once. Viem's
 * accounts are plain objects that callers copy rather than change (the relayer spreads its own
 * nonce manager onto a copy). For development and tests only: the keys are public.
 */
export function getDevnetAccount(addressIndex: number): HDAccount {
  let account = derived.get(addressIndex)
  if (account === undefined) {
    account = mnemonicToAccount(devnetMnemonic, { addressIndex })
    derived.set(addressIndex, account)
  }
  return account
}
