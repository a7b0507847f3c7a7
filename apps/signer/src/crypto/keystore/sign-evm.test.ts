import {
  hashMessage,
  keccak256,
  parseEther,
  parseGwei,
  recoverAddress,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  type TransactionSerializable,
  toHex,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { recoverAuthorizationAddress, verifyAuthorization } from 'viem/utils'
import { beforeAll, describe, expect, it } from 'vitest'
import { deriveWalletSeed } from './derive-wallet-seed.ts'
import { KeystoreError } from './keystore-error.ts'
import { signEvm } from './sign-evm.ts'

const testPhrase =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
const address = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'
const reference = mnemonicToAccount(testPhrase)
let seed: Uint8Array

beforeAll(async () => {
  seed = await deriveWalletSeed(testPhrase)
})

const typedData = {
  domain: {
    name: 'Quick Links',
    version: '1',
    chainId: 8453,
    verifyingContract: '0x1111111111111111111111111111111111111111',
  },
  types: {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Payment: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Payment',
  message: {
    from: { name: 'Payer', wallet: '0x2222222222222222222222222222222222222222' },
    to: { name: 'Payee', wallet: address },
    amount: 1_000_000n,
  },
} as const

const transactions: Array<[string, TransactionSerializable]> = [
  [
    'EIP-1559',
    {
      chainId: 8453,
      type: 'eip1559',
      nonce: 7,
      to: '0x3333333333333333333333333333333333333333',
      value: parseEther('0.01'),
      gas: 21_000n,
      maxFeePerGas: parseGwei('2'),
      maxPriorityFeePerGas: parseGwei('1'),
    },
  ],
  [
    'legacy (EIP-155)',
    {
      chainId: 43114,
      type: 'legacy',
      nonce: 0,
      to: address,
      value: 1n,
      gas: 21_000n,
      gasPrice: parseGwei('25'),
    },
  ],
]

describe('signEvm', () => {
  it('signs an EIP-191 message that recovers to the wallet address, as viem would', async () => {
    const signature = await signEvm(seed, { kind: 'message', message: 'Sign in to Quick Links' })
    expect(await recoverMessageAddress({ message: 'Sign in to Quick Links', signature })).toBe(address)
    expect(signature).toBe(await reference.signMessage({ message: 'Sign in to Quick Links' }))
    const raw = await signEvm(seed, { kind: 'message', message: { raw: '0xdeadbeef' } })
    expect(await recoverMessageAddress({ message: { raw: '0xdeadbeef' }, signature: raw })).toBe(address)
  })

  it('signs EIP-712 typed data that recovers to the wallet address', async () => {
    const signature = await signEvm(seed, { kind: 'typedData', typedData })
    expect(await recoverTypedDataAddress({ ...typedData, signature })).toBe(address)
    expect(signature).toBe(await reference.signTypedData(typedData))
  })

  it.each(transactions)(
    'signs a %s transaction whose sender recovers to the wallet address',
    async (_name, tx) => {
      const serializedTransaction = await signEvm(seed, { kind: 'transaction', transaction: tx })
      expect(await recoverTransactionAddress({ serializedTransaction })).toBe(address)
      expect(serializedTransaction).toBe(await reference.signTransaction(tx))
    },
  )

  it('signs an EIP-7702 authorization that recovers to the wallet address', async () => {
    const authorization = await signEvm(seed, {
      kind: 'authorization',
      authorization: { chainId: 8453, nonce: 3, address: '0x4444444444444444444444444444444444444444' },
    })
    expect(authorization).toMatchObject({
      chainId: 8453,
      nonce: 3,
      address: '0x4444444444444444444444444444444444444444',
    })
    expect(await recoverAuthorizationAddress({ authorization })).toBe(address)
    expect(await verifyAuthorization({ address, authorization })).toBe(true)
  })

  it('signs an EIP-7702 transaction carrying its own authorization', async () => {
    const authorization = await signEvm(seed, {
      kind: 'authorization',
      authorization: { chainId: 8453, nonce: 1, address: '0x4444444444444444444444444444444444444444' },
    })
    const serializedTransaction = await signEvm(seed, {
      kind: 'transaction',
      transaction: {
        chainId: 8453,
        type: 'eip7702',
        nonce: 0,
        to: address,
        gas: 100_000n,
        maxFeePerGas: parseGwei('2'),
        maxPriorityFeePerGas: parseGwei('1'),
        authorizationList: [authorization],
      },
    })
    expect(serializedTransaction.startsWith('0x04')).toBe(true)
    expect(await recoverTransactionAddress({ serializedTransaction })).toBe(address)
  })

  it('signs a raw 32-byte digest', async () => {
    const hash = keccak256(toHex('payload'))
    const signature = await signEvm(seed, { kind: 'hash', hash })
    expect(await recoverAddress({ hash, signature })).toBe(address)
    expect(await recoverAddress({ hash: hashMessage('payload'), signature })).not.toBe(address)
  })

  it('refuses a digest that is not 32 bytes', async () => {
    await expect(signEvm(seed, { kind: 'hash', hash: '0x1234' })).rejects.toMatchObject({
      reason: 'SIGN_REQUEST_INVALID',
    })
    await expect(signEvm(seed, { kind: 'hash', hash: '0x1234' })).rejects.toBeInstanceOf(KeystoreError)
  })
})
