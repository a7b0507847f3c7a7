import { chmod, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bytesToHex } from '@noble/hashes/utils.js'
import { base64, base64urlnopad } from '@scure/base'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createReasonOf } from '../../../test/create-reason-of.ts'
import { KeystoreError } from './keystore-error.ts'
import { loadMasterKey, masterKeyFileName } from './load-master-key.ts'

let directory: string

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'signer-master-key-'))
})

afterEach(async () => {
  await rm(directory, { recursive: true, force: true })
})

const reasonOf = createReasonOf(KeystoreError)

const isPosix = process.platform !== 'win32'

describe('loadMasterKey', () => {
  it('reads SIGNER_MASTER_KEY as hex, 0x-hex, base64 or base64url, and writes no file', async () => {
    const key = crypto.getRandomValues(new Uint8Array(32))
    for (const masterKey of [
      bytesToHex(key),
      `0x${bytesToHex(key).toUpperCase()}`,
      base64.encode(key),
      base64urlnopad.encode(key),
      `  ${bytesToHex(key)}\n`,
    ]) {
      const loaded = await loadMasterKey({ masterKey, dataDir: directory })
      expect([masterKey, loaded.source, loaded.key]).toEqual([masterKey, 'environment', key])
    }
    await expect(stat(join(directory, masterKeyFileName))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('refuses a SIGNER_MASTER_KEY that is not exactly 32 bytes, or all zeros', async () => {
    for (const masterKey of [
      'abc',
      'ab'.repeat(31),
      'ab'.repeat(33),
      base64.encode(new Uint8Array(31)),
      '00'.repeat(32),
    ]) {
      expect([masterKey, await reasonOf(loadMasterKey({ masterKey, dataDir: directory }))]).toEqual([
        masterKey,
        'MASTER_KEY_INVALID',
      ])
    }
  })

  it('generates a 0600 key file on first start (creating the data directory) and reads it back after', async () => {
    const dataDir = join(directory, 'nested', '.data')
    const first = await loadMasterKey({ masterKey: undefined, dataDir })
    expect(first.source).toBe('generated')
    expect(first.key).toHaveLength(32)
    const path = join(dataDir, masterKeyFileName)
    expect(first.path).toBe(path)
    if (isPosix) expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect((await readFile(path, 'utf8')).trim()).toBe(bytesToHex(first.key))
    const second = await loadMasterKey({ masterKey: '', dataDir })
    expect([second.source, second.key]).toEqual(['file', first.key])
  })

  it('gives concurrent first starts one shared key', async () => {
    const loads = await Promise.all(Array.from({ length: 4 }, () => loadMasterKey({ dataDir: directory })))
    const keys = new Set(loads.map((loaded) => bytesToHex(loaded.key)))
    expect(keys.size).toBe(1)
    expect(loads.filter((loaded) => loaded.source === 'generated')).toHaveLength(1)
  })

  it.runIf(isPosix).each([
    ['0640', 0o640],
    ['0604', 0o604],
    ['0660', 0o660],
    ['0644', 0o644],
    ['0610', 0o610],
  ])('refuses a key file with mode %s and leaves it untouched', async (_label, mode) => {
    const path = join(directory, masterKeyFileName)
    const content = `${'ab'.repeat(32)}\n`
    await writeFile(path, content, { mode: 0o600 })
    await chmod(path, mode)
    const result = loadMasterKey({ dataDir: directory })
    await expect(result).rejects.toThrow(/chmod 600/)
    expect(await reasonOf(loadMasterKey({ dataDir: directory }))).toBe('MASTER_KEY_FILE_INSECURE')
    expect(await readFile(path, 'utf8')).toBe(content)
  })

  it.runIf(isPosix)('accepts an owner-only key file that is read-only (0400)', async () => {
    const path = join(directory, masterKeyFileName)
    await writeFile(path, 'ab'.repeat(32), { mode: 0o600 })
    await chmod(path, 0o400)
    expect(bytesToHex((await loadMasterKey({ dataDir: directory })).key)).toBe('ab'.repeat(32))
  })

  it.runIf(isPosix)('refuses a symlinked key file', async () => {
    const target = join(directory, 'elsewhere.key')
    await writeFile(target, 'ab'.repeat(32), { mode: 0o600 })
    await symlink(target, join(directory, masterKeyFileName))
    expect(await reasonOf(loadMasterKey({ dataDir: directory }))).toBe('MASTER_KEY_FILE_INSECURE')
  })

  it('refuses a corrupt key file instead of replacing it (that would orphan every sealed record)', async () => {
    const path = join(directory, masterKeyFileName)
    await writeFile(path, 'not a key', { mode: 0o600 })
    expect(await reasonOf(loadMasterKey({ dataDir: directory }))).toBe('MASTER_KEY_INVALID')
    expect(await readFile(path, 'utf8')).toBe('not a key')
  })

  it('prefers SIGNER_MASTER_KEY over an existing file', async () => {
    await writeFile(join(directory, masterKeyFileName), 'cd'.repeat(32), { mode: 0o600 })
    const loaded = await loadMasterKey({ masterKey: 'ef'.repeat(32), dataDir: directory })
    expect([loaded.source, bytesToHex(loaded.key)]).toEqual(['environment', 'ef'.repeat(32)])
  })
})
