import { join } from 'node:path'
import { readOrCreateSecretFile } from '@quicklinks/runtime/secret-file'
import { keccak256, type LocalAccount, slice } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { ServerConfig } from '../../config/server-env.ts'

/** The file name of the generated development receipt key inside the data directory. */
export const receiptKeyFileName = 'receipt-signing.key'

/** The key receipts are signed with, and the short name the well-known file gives it. */
export type ReceiptSigner = {
  account: LocalAccount
  /** The first 8 bytes of keccak256 of the signer's address: lets a verifier name the key it pinned. */
  keyId: `0x${string}`
}

/**
 * The instance's receipt key (docs/api.md#receipts): RECEIPT_SIGNING_KEY, else in dev mode the key
 * in `${dataDir}/receipt-signing.key`, generated (mode 0600, 0x hex) on first start, so `npm start`
 * issues receipts from a fresh clone and keeps the same signer across restarts; else none (the
 * receipt endpoints then answer 503). The key is never logged.
 *
 * Rejects when the key file is unsafe (a symlink, readable by others) or not a 32-byte hex key.
 */
export async function loadReceiptSigner(
  config: Pick<ServerConfig, 'receiptSigningKey' | 'devMode' | 'dataDir'>,
): Promise<ReceiptSigner | undefined> {
  if (config.receiptSigningKey) return toReceiptSigner(config.receiptSigningKey, 'RECEIPT_SIGNING_KEY')
  if (!config.devMode) return undefined
  const path = join(config.dataDir, receiptKeyFileName)
  const { contents } = await readOrCreateSecretFile(path, () => `${generatePrivateKey()}\n`)
  return toReceiptSigner(contents.trim(), path)
}

function toReceiptSigner(key: string, origin: string): ReceiptSigner {
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new Error(`${origin} is not a secp256k1 private key (0x followed by 64 hex digits)`)
  }
  const account = privateKeyToAccount(key as `0x${string}`)
  return { account, keyId: slice(keccak256(account.address), 0, 8) }
}
