import { type Hex, parseEther, recoverTransactionAddress, type TransactionSerialized } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { recoverAuthorizationAddress } from 'viem/utils'
import { describe, expect, it } from 'vitest'
import { createSignerAccount } from './create-signer-account.ts'

// A signer that signs digests with a local key: the account must produce exactly what viem's own
// private-key account produces (RFC 6979 signatures are deterministic).
const reference = privateKeyToAccount(generatePrivateKey())
const signed: Hex[] = []
const account = createSignerAccount({
  address: reference.address,
  signHash: async (hash) => {
    signed.push(hash)
    // The service may answer v as 0/1; the account must still return v 27/28.
    const signature = await reference.sign({ hash })
    return `${signature.slice(0, 130)}${signature.endsWith('1b') ? '00' : '01'}` as Hex
  },
})

const typedData = {
  domain: { name: 'Quick Links', version: '1', chainId: 8453 },
  types: { Note: [{ name: 'text', type: 'string' }] },
  primaryType: 'Note',
  message: { text: 'hello' },
} as const

describe('createSignerAccount', () => {
  it('signs messages and typed data as a private-key account would, sending only digests', async () => {
    expect(await account.signMessage({ message: 'hello' })).toBe(
      await reference.signMessage({ message: 'hello' }),
    )
    expect(await account.signTypedData(typedData)).toBe(await reference.signTypedData(typedData))
    expect(signed.every((hash) => /^0x[0-9a-f]{64}$/.test(hash))).toBe(true)
  })

  it('returns a serialised signed transaction that recovers to the address', async () => {
    const transaction = {
      chainId: 8453,
      type: 'eip1559',
      to: '0x000000000000000000000000000000000000dEaD',
      value: parseEther('0.01'),
      nonce: 3,
      gas: 21_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
    } as const
    const serialized = await account.signTransaction(transaction)
    expect(serialized).toBe(await reference.signTransaction(transaction))
    expect(
      await recoverTransactionAddress({ serializedTransaction: serialized as TransactionSerialized }),
    ).toBe(reference.address)
  })

  it('signs an EIP-7702 authorization that recovers to the address', async () => {
    const request = {
      chainId: 8453,
      address: '0x000000000000000000000000000000000000bEEF',
      nonce: 7,
    } as const
    const authorization = await account.signAuthorization?.(request)
    if (authorization === undefined) throw new Error('signAuthorization missing')
    expect(authorization).toMatchObject({ chainId: 8453, nonce: 7, address: request.address })
    expect(await recoverAuthorizationAddress({ authorization })).toBe(reference.address)
  })
})
