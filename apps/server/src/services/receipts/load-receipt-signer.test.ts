import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, it } from 'vitest'
import { loadReceiptSigner, receiptKeyFileName } from './load-receipt-signer.ts'

const dataDirs: string[] = []
afterEach(async () => {
  await Promise.all(dataDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function createDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ql-receipt-key-'))
  dataDirs.push(dir)
  return dir
}

describe('loadReceiptSigner', () => {
  it('signs with RECEIPT_SIGNING_KEY when set, in any mode', async () => {
    const key = `0x${'3d'.repeat(32)}` as const
    const signer = await loadReceiptSigner({
      receiptSigningKey: key,
      devMode: false,
      dataDir: await createDataDir(),
    })
    expect(signer?.account.address).toBe(privateKeyToAccount(key).address)
    expect(signer?.keyId).toMatch(/^0x[0-9a-f]{16}$/)
  })

  it('generates a dev key once into the data folder (mode 0600) and signs with it on every start', async () => {
    const dataDir = await createDataDir()
    const first = await loadReceiptSigner({ receiptSigningKey: undefined, devMode: true, dataDir })
    const second = await loadReceiptSigner({ receiptSigningKey: undefined, devMode: true, dataDir })
    expect(first?.account.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(second?.account.address).toBe(first?.account.address)
    const path = join(dataDir, receiptKeyFileName)
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect(privateKeyToAccount((await readFile(path, 'utf8')).trim() as `0x${string}`).address).toBe(
      first?.account.address,
    )
  })

  it('has no key outside dev mode without RECEIPT_SIGNING_KEY (the receipt routes then answer 503)', async () => {
    const dataDir = await createDataDir()
    expect(await loadReceiptSigner({ receiptSigningKey: undefined, devMode: false, dataDir })).toBeUndefined()
  })
})
