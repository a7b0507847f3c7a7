import { getDevnetAccount } from '@quicklinks/devnet/get-devnet-account'
import type { LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/** Accounts of configured keys, by key: one secp256k1 public-key derivation per key per process. */
const fromKeys = new Map<`0x${string}`, LocalAccount>()

/**
 * The account an operator key signs as (the relayer's, the deposit operator's): the configured
 * private key, else in dev mode the devnet account at `devnetIndex`, else none. Workers ask for it
 * every round, so each account is made once (docs/decisions/0009: the caller copies it to attach
 * its own nonce manager). Never throws for a key the config schema accepted.
 */
export function getSigningAccount(
  privateKey: `0x${string}` | undefined,
  devMode: boolean,
  devnetIndex: number,
): LocalAccount | undefined {
  if (privateKey) {
    let account = fromKeys.get(privateKey)
    if (account === undefined) {
      account = privateKeyToAccount(privateKey)
      fromKeys.set(privateKey, account)
    }
    return account
  }
  return devMode ? getDevnetAccount(devnetIndex) : undefined
}
