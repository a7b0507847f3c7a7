import { chmod, mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createKeyPairSignerFromPrivateKeyBytes,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase58Decoder,
} from '@solana/kit'
import { describe, expect, it } from 'vitest'
import { loadSolanaSponsor, solanaSponsorKeyFileName } from './load-solana-sponsor.ts'

/** A 64-byte secret key (seed then public key) in base58, and its address. */
async function makeSecretKey() {
  const seed = crypto.getRandomValues(new Uint8Array(32))
  const signer = await createKeyPairSignerFromPrivateKeyBytes(seed)
  const bytes = new Uint8Array(64)
  bytes.set(seed, 0)
  bytes.set(getAddressEncoder().encode(signer.address), 32)
  return { base58: getBase58Decoder().decode(bytes), address: signer.address, bytes }
}

describe('loadSolanaSponsor', () => {
  it('uses SOLANA_SPONSOR_KEY, and refuses one whose public half is not its seed’s', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ql-solana-sponsor-'))
    const key = await makeSecretKey()
    const sponsor = await loadSolanaSponsor({ solanaSponsorKey: key.base58, solanaDevnet: false, dataDir })
    expect(sponsor?.address).toBe(key.address)
    const other = await generateKeyPairSigner()
    const mismatched = new Uint8Array(key.bytes)
    mismatched.set(getAddressEncoder().encode(other.address), 32)
    await expect(
      loadSolanaSponsor({
        solanaSponsorKey: getBase58Decoder().decode(mismatched),
        solanaDevnet: false,
        dataDir,
      }),
    ).rejects.toThrow(
      'SOLANA_SPONSOR_KEY is not a 64-byte Solana secret key in base58 whose public half matches its seed',
    )
  })

  it('has no sponsor without a key outside the development LiteSVM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ql-solana-sponsor-'))
    expect(
      await loadSolanaSponsor({ solanaSponsorKey: undefined, solanaDevnet: false, dataDir }),
    ).toBeUndefined()
  })

  it('generates the dev key once into a 0600 file and reads it back on the next start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ql-solana-sponsor-'))
    const first = await loadSolanaSponsor({ solanaSponsorKey: undefined, solanaDevnet: true, dataDir })
    const path = join(dataDir, solanaSponsorKeyFileName)
    expect(((await stat(path)).mode & 0o777).toString(8)).toBe('600')
    expect((await readFile(path, 'utf8')).trim()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/)
    const second = await loadSolanaSponsor({ solanaSponsorKey: undefined, solanaDevnet: true, dataDir })
    expect(second?.address).toBe(first?.address)
    // Two instances starting at once on a fresh data directory share one key.
    const fresh = await mkdtemp(join(tmpdir(), 'ql-solana-sponsor-'))
    const [a, b] = await Promise.all(
      [0, 1].map(() =>
        loadSolanaSponsor({ solanaSponsorKey: undefined, solanaDevnet: true, dataDir: fresh }),
      ),
    )
    expect(a?.address).toBe(b?.address)
  })

  it('refuses a key file other users could read, or a symlink', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ql-solana-sponsor-'))
    const key = await makeSecretKey()
    const path = join(dataDir, solanaSponsorKeyFileName)
    await writeFile(path, key.base58, { mode: 0o644 })
    await chmod(path, 0o644)
    await expect(
      loadSolanaSponsor({ solanaSponsorKey: undefined, solanaDevnet: true, dataDir }),
    ).rejects.toThrow(`${path} has mode 0644; other users could read it. Run: chmod 600 ${path}`)
    const linked = await mkdtemp(join(tmpdir(), 'ql-solana-sponsor-'))
    await symlink(path, join(linked, solanaSponsorKeyFileName))
    await expect(
      loadSolanaSponsor({ solanaSponsorKey: undefined, solanaDevnet: true, dataDir: linked }),
    ).rejects.toThrow('is a symlink')
  })
})
