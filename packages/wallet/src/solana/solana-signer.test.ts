// The store's Solana signer against a signer client that signs with a real ed25519 key (the SDK
// against the real signer service is tested in apps/signer/test/wallet-sdk-integration.test.ts).
import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import {
  address,
  createSignableMessage,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase58Encoder,
  getTransactionEncoder,
  isMessagePartialSigner,
  isTransactionPartialSigner,
  isTransactionSendingSigner,
  setTransactionMessageFeePayerSigner,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { afterEach, describe, expect, it } from 'vitest'
import { sponsoredTransferMessage } from '../../test/solana-test-helpers.ts'
import { signerStorageKey, writePersistedSession } from '../persisted-session.ts'
import type { SignerClient, SignPayloadParameters } from '../signer-client.ts'
import { createSignerStore, type SignerStore } from '../signer-store.ts'
import type { SignerUser } from '../signer-types.ts'
import type { Stamper } from '../stamper.ts'

const secretKey = ed25519.utils.randomSecretKey()
const solanaAddress = getBase58Decoder().decode(ed25519.getPublicKey(secretKey))

const stores: SignerStore[] = []
afterEach(() => {
  for (const store of stores.splice(0)) store.destroy()
})

/** A store with a stored session for `user`; `signPayload` signs with the key above and is counted. */
function setUp(user: Partial<SignerUser> = {}) {
  const entries = new Map<string, string>()
  const storage = {
    getItem: (key: string) => entries.get(key) ?? null,
    setItem: (key: string, value: string) => void entries.set(key, value),
    removeItem: (key: string) => void entries.delete(key),
  }
  writePersistedSession(storage, signerStorageKey, {
    user: {
      orgId: 'org-1',
      userId: 'user-1',
      address: '0x1111111111111111111111111111111111111111',
      solanaAddress,
      email: 'ada@example.com',
      ...user,
    },
    expiresAtMs: Date.now() + 60_000,
  })
  const signed: SignPayloadParameters[] = []
  const client = {
    baseUrl: 'http://localhost',
    serverNow: () => Date.now(),
    signPayload: async (_stamper: Stamper, _orgId: string, parameters: SignPayloadParameters) => {
      signed.push(parameters)
      // The signer answers more than 64 bytes for Solana; the SDK keeps the first 64.
      const signature = ed25519.sign(hexToBytes(parameters.payload.slice(2)), secretKey)
      return { signature: `0x${bytesToHex(signature)}00`, activity: { id: `act-${signed.length}` } }
    },
    revokeSession: async () => ({ revoked: true }),
  } as unknown as SignerClient
  const stamper = { kind: 'key', reset: async () => undefined } as unknown as Stamper
  const store = createSignerStore({ client, stamper, storage, eventTarget: null })
  stores.push(store)
  return { store, signed }
}

describe('the Solana signer of the signer store', () => {
  it('is a kit message and transaction signer for the user’s Solana address, the same object while signed in', () => {
    const { store } = setUp()
    const signer = store.getState().toSolanaSigner()
    expect(signer.address).toBe(solanaAddress)
    expect(isMessagePartialSigner(signer) && isTransactionPartialSigner(signer)).toBe(true)
    expect(store.getState().toSolanaSigner()).toBe(signer)
    expect(isTransactionSendingSigner(signer)).toBe(false)
    const sending = store.getState().toSolanaSigner({ rpc: createSolanaRpc('http://127.0.0.1:1') })
    expect(isTransactionSendingSigner(sending) && isTransactionPartialSigner(sending)).toBe(true)
    expect(sending.address).toBe(solanaAddress)
  })

  it('signs messages, one signing activity each, with signatures that verify', async () => {
    const { store, signed } = setUp()
    const signer = store.getState().toSolanaSigner()
    const messages = [createSignableMessage('first'), createSignableMessage(new Uint8Array([1, 2, 3]))]
    const dictionaries = await signer.signMessages(messages)
    expect(signed).toHaveLength(2)
    expect(signed[0]).toMatchObject({ signWith: solanaAddress, hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE' })
    messages.forEach((message, index) => {
      const signature = dictionaries[index]?.[address(solanaAddress)]
      expect(signature).toHaveLength(64)
      expect(
        ed25519.verify(
          signature ?? new Uint8Array(),
          message.content,
          new Uint8Array(getBase58Encoder().encode(solanaAddress)),
        ),
      ).toBe(true)
    })
  })

  it('signs a transaction message with kit’s signTransactionMessageWithSigners: its message bytes', async () => {
    const { store, signed } = setUp()
    const signer = store.getState().toSolanaSigner()
    const recipient = await generateKeyPairSigner()
    const message = setTransactionMessageFeePayerSigner(
      signer,
      sponsoredTransferMessage({
        feePayer: signer.address,
        from: signer,
        to: recipient.address,
        lamports: 5n,
      }),
    )
    const transaction = await signTransactionMessageWithSigners(message)
    expect(signed).toHaveLength(1)
    expect(signed[0]?.payload).toBe(`0x${bytesToHex(new Uint8Array(transaction.messageBytes))}`)
    const signature = transaction.signatures[signer.address]
    expect(
      ed25519.verify(
        signature ?? new Uint8Array(),
        new Uint8Array(transaction.messageBytes),
        new Uint8Array(getBase58Encoder().encode(solanaAddress)),
      ),
    ).toBe(true)
    expect(getTransactionEncoder().encode(transaction).length).toBeGreaterThan(64)
  })

  it('refuses when signed out: "Must be authenticated!", at creation and at signing', async () => {
    const { store, signed } = setUp()
    const signer = store.getState().toSolanaSigner()
    await store.getState().logout()
    expect(() => store.getState().toSolanaSigner()).toThrow('Must be authenticated!')
    await expect(signer.signMessages([createSignableMessage('after logout')])).rejects.toThrow(
      'Must be authenticated!',
    )
    expect(signed).toHaveLength(0)
  })

  it('refuses a user without a Solana address: "No Solana address available for the user"', () => {
    const { store, signed } = setUp({ solanaAddress: null })
    expect(() => store.getState().toSolanaSigner()).toThrow('No Solana address available for the user')
    expect(signed).toHaveLength(0)
  })

  it('refuses to sign for an account that is no longer the signed-in one', async () => {
    const { store, signed } = setUp()
    const signer = store.getState().toSolanaSigner()
    const other = await generateKeyPairSigner()
    const user = store.getState().user
    if (user === null) throw new Error('not signed in')
    store.setState({ user: { ...user, solanaAddress: other.address } })
    await expect(signer.signMessages([createSignableMessage('hi')])).rejects.toThrow('Must be authenticated!')
    expect(signed).toHaveLength(0)
  })

  it('stops before signing when aborted', async () => {
    const { store, signed } = setUp()
    const signer = store.getState().toSolanaSigner()
    const controller = new AbortController()
    controller.abort()
    await expect(
      signer.signMessages([createSignableMessage('hi')], { abortSignal: controller.signal }),
    ).rejects.toThrow()
    expect(signed).toHaveLength(0)
  })
})
