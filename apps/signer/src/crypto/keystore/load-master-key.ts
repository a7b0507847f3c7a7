import { join } from 'node:path'
import { bytesToHex } from '@noble/hashes/utils.js'
import { InsecureSecretFileError, readOrCreateSecretFile } from '@quicklinks/runtime/secret-file'
import { base64, base64nopad, base64url, base64urlnopad, hex } from '@scure/base'
import { KeystoreError } from './keystore-error.ts'

/** The file name of the generated key inside the data directory. */
export const masterKeyFileName = 'signer-master.key'

/** The loaded key-encryption key and where it came from (for a start-up log line; never log the key). */
export type LoadedMasterKey = {
  key: Uint8Array
  source: 'environment' | 'file' | 'generated'
  /** The key file, when the key came from or went to one. */
  path?: string
}

/**
 * Loads the signer's 32-byte key-encryption key: from `SIGNER_MASTER_KEY` when set (64 hex
 * characters, optionally `0x`-prefixed, or standard/URL-safe base64 with or without padding);
 * otherwise from `${dataDir}/signer-master.key`, which is created with mode 0600 on first start.
 *
 * Why: production passes the key from a secret store; `npm start` must work offline from a fresh
 * clone without one, and a key file readable by other local users would defeat encryption at rest.
 *
 * How: the file is opened without following symlinks and checked through the open handle
 * (regular file, no group/world permission bits), so it cannot be swapped between check and read;
 * it is created with O_EXCL, so two instances starting at once end up sharing one key.
 *
 * Fails by throwing a {@link KeystoreError}: `MASTER_KEY_INVALID` for a value that is not exactly
 * 32 bytes in a supported encoding or is all zeros; `MASTER_KEY_FILE_INSECURE` for a key file that is
 * group- or world-accessible, a symlink or not a regular file (the message says how to fix it).
 * Other file-system errors (e.g. an unwritable data directory) propagate.
 */
export async function loadMasterKey(input: {
  masterKey?: string | undefined
  dataDir: string
}): Promise<LoadedMasterKey> {
  if (input.masterKey !== undefined && input.masterKey.trim().length > 0) {
    return { key: parseMasterKey(input.masterKey, 'SIGNER_MASTER_KEY'), source: 'environment' }
  }
  const path = join(input.dataDir, masterKeyFileName)
  let file: { contents: string; created: boolean }
  try {
    file = await readOrCreateSecretFile(
      path,
      () => `${bytesToHex(crypto.getRandomValues(new Uint8Array(32)))}\n`,
    )
  } catch (error) {
    if (error instanceof InsecureSecretFileError)
      throw new KeystoreError('MASTER_KEY_FILE_INSECURE', error.message)
    throw error
  }
  return { key: parseMasterKey(file.contents, path), source: file.created ? 'generated' : 'file', path }
}

function parseMasterKey(value: string, origin: string): Uint8Array {
  const trimmed = value.trim()
  const candidates = /^(0x)?[0-9a-fA-F]{64}$/.test(trimmed)
    ? [() => hex.decode(trimmed.replace(/^0x/, '').toLowerCase())]
    : [base64, base64nopad, base64url, base64urlnopad].map((codec) => () => codec.decode(trimmed))
  for (const decode of candidates) {
    let key: Uint8Array
    try {
      key = decode()
    } catch {
      continue
    }
    if (key.length !== 32) continue
    if (key.every((byte) => byte === 0)) {
      throw new KeystoreError('MASTER_KEY_INVALID', `${origin} is all zeros`)
    }
    return key
  }
  throw new KeystoreError(
    'MASTER_KEY_INVALID',
    `${origin} must be 32 bytes as 64 hex characters or base64 (e.g. \`openssl rand -hex 32\`)`,
  )
}
