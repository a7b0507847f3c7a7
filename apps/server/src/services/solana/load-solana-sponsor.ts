import { constants } from 'node:fs'
import { mkdir, open } from 'node:fs/promises'
import { join } from 'node:path'
import type { ServerConfig } from '@quicklinks/runtime/env'
import {
  createKeyPairSignerFromBytes,
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressEncoder,
  getBase58Decoder,
  getBase58Encoder,
  type KeyPairSigner,
} from '@solana/kit'

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
  const existing = await readKeyFile(path)
  if (existing !== undefined) return signerFromBase58(existing, path)

  await mkdir(config.dataDir, { recursive: true, mode: 0o700 })
  const seed = crypto.getRandomValues(new Uint8Array(32))
  const signer = await createKeyPairSignerFromPrivateKeyBytes(seed)
  const secretKey = new Uint8Array(64)
  secretKey.set(seed, 0)
  secretKey.set(getAddressEncoder().encode(signer.address), 32)
  try {
    const handle = await open(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow(),
      0o600,
    )
    try {
      await handle.writeFile(`${getBase58Decoder().decode(secretKey)}\n`)
      await handle.sync()
    } finally {
      await handle.close()
    }
    return signer
  } catch (error) {
    // Another instance created it between our read and our write: use theirs.
    if (isErrorCode(error, 'EEXIST')) {
      const raced = await readKeyFile(path)
      if (raced !== undefined) return signerFromBase58(raced, path)
    }
    throw error
  }
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

async function readKeyFile(path: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(path, constants.O_RDONLY | noFollow())
  } catch (error) {
    if (isErrorCode(error, 'ENOENT')) return undefined
    if (isErrorCode(error, 'ELOOP'))
      throw new Error(`${path} is a symlink; replace it with the key file itself`)
    throw error
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw new Error(`${path} is not a regular file`)
    if (process.platform !== 'win32' && (stats.mode & 0o077) !== 0) {
      const mode = (stats.mode & 0o777).toString(8).padStart(4, '0')
      throw new Error(`${path} has mode ${mode}; other users could read it. Run: chmod 600 ${path}`)
    }
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}

function noFollow(): number {
  return constants.O_NOFOLLOW ?? 0
}

function isErrorCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code
}
