import { constants } from 'node:fs'
import { mkdir, open } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * A secret file that other local users could read or swap (a symlink, not a regular file, group
 * or world permission bits): its message says how to fix it.
 */
export class InsecureSecretFileError extends Error {
  override readonly name = 'InsecureSecretFileError'
}

/**
 * Reads a secret kept in a file of the data directory (the signer's master key, the development
 * Solana sponsor key), creating it on first start: resolves the file's text and whether this call
 * wrote it. `generate` is called only when there is no file.
 *
 * Why: `npm start` must work offline from a fresh clone without secrets in the environment, and a
 * key file other local users can read would defeat the key.
 *
 * How: the file is opened without following symlinks and checked through the open handle (a
 * regular file, no group or world permission bits), so it cannot be swapped between the check and
 * the read; it is created with O_EXCL and mode 0600 (its directory 0700), so two processes starting
 * at once end up sharing one secret.
 *
 * Rejects with InsecureSecretFileError for an unsafe file; other file-system errors (an
 * unwritable directory) as they are.
 */
export async function readOrCreateSecretFile(
  path: string,
  generate: () => string | Promise<string>,
): Promise<{ contents: string; created: boolean }> {
  const existing = await readSecretFile(path)
  if (existing !== undefined) return { contents: existing, created: false }

  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const contents = await generate()
  try {
    const handle = await open(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow(),
      0o600,
    )
    try {
      await handle.writeFile(contents)
      await handle.sync()
    } finally {
      await handle.close()
    }
    return { contents, created: true }
  } catch (error) {
    // Another process created it between our read and our write: use theirs.
    if (isErrorCode(error, 'EEXIST')) {
      const raced = await readSecretFile(path)
      if (raced !== undefined) return { contents: raced, created: false }
    }
    throw error
  }
}

/** The secret file's text, or undefined when there is none; rejects as readOrCreateSecretFile does. */
export async function readSecretFile(path: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(path, constants.O_RDONLY | noFollow())
  } catch (error) {
    if (isErrorCode(error, 'ENOENT')) return undefined
    if (isErrorCode(error, 'ELOOP')) {
      throw new InsecureSecretFileError(`${path} is a symlink; replace it with the key file itself`)
    }
    throw error
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw new InsecureSecretFileError(`${path} is not a regular file`)
    if (process.platform !== 'win32' && (stats.mode & 0o077) !== 0) {
      const mode = (stats.mode & 0o777).toString(8).padStart(4, '0')
      throw new InsecureSecretFileError(
        `${path} has mode ${mode}; other users could read it. Run: chmod 600 ${path}`,
      )
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
