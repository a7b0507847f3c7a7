import { join } from 'node:path'
import { readOrCreateSecretFile } from '@quicklinks/runtime/secret-file'
import {
  createKeyPairSignerFromBytes,
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressEncoder,
  getBase58Decoder,
  getBase58Encoder,
  type KeyPairSigner,
} from '@solana/kit'
import type { ServerConfig } from '../../config/server-env.ts'

/** The file name of the generated dev sponsor key inside the data directory. */
export const solanaSponsorKeyFileName = 'solana-sponsor.key'

/**
 * The Solana fee sponsor's signer: SOLANA_SPONSOR_KEY (a 64-byte secret key in base58: the secret
 * seed then the public key), else on the development LiteSVM the key in
 * `${dataDir}/solana-sponsor.key`, generated (mode 0600, base58) on first start; else none (then
 * nothing is sponsored). The key is never logged.
 *
 * Rejects when the key's public half does not match its seed, or when the key file is a symlink,
 * not a regular file, or readable by other users.
 */
export async function loadSolanaSponsor(
  config: Pick<ServerConfig, 'solanaSponsorKey' | 'solanaDevnet' | 'dataDir'>,
): Promise<KeyPairSigner | undefined> {
  if (config.solanaSponsorKey) return signerFromBase58(config.solanaSponsorKey, 'SOLANA_SPONSOR_KEY')
  if (!config.solanaDevnet) return undefined
  const path = join(config.dataDir, solanaSponsorKeyFileName)
  const { contents } = await readOrCreateSecretFile(path, async () => {
    // A Solana secret key is the 32-byte seed followed by its public key.
    const seed = crypto.getRandomValues(new Uint8Array(32))
    const secretKey = new Uint8Array(64)
    secretKey.set(seed, 0)
    const { address } = await createKeyPairSignerFromPrivateKeyBytes(seed)
    secretKey.set(getAddressEncoder().encode(address), 32)
    return `${getBase58Decoder().decode(secretKey)}\n`
  })
  return signerFromBase58(contents, path)
}

async function signerFromBase58(value: string, origin: string): Promise<KeyPairSigner> {
  try {
    return await createKeyPairSignerFromBytes(getBase58Encoder().encode(value.trim()))
  } catch (cause) {
    throw new Error(
      `${origin} is not a 64-byte Solana secret key in base58 whose public half matches its seed`,
      {
        cause,
      },
    )
  }
}
