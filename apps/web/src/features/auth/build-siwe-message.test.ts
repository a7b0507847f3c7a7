import { verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import { describe, expect, it } from 'vitest'
import { buildSiweMessage, siweChainId } from './build-siwe-message'

const account = privateKeyToAccount(generatePrivateKey())
const issuedAt = new Date('2025-06-01T12:00:00.000Z')

describe('buildSiweMessage', () => {
  it('builds an EIP-4361 message bound to the page host, origin, Base and the nonce', () => {
    const message = buildSiweMessage({
      address: account.address,
      nonce: 'k2x9Qa7LmP3r',
      origin: 'http://localhost:3100',
      issuedAt,
    })
    expect(message.split('\n')[0]).toBe('localhost:3100 wants you to sign in with your Ethereum account:')
    expect(message.split('\n')[1]).toBe(account.address)
    const parsed = parseSiweMessage(message)
    expect(parsed).toMatchObject({
      domain: 'localhost:3100',
      uri: 'http://localhost:3100',
      chainId: siweChainId,
      nonce: 'k2x9Qa7LmP3r',
      version: '1',
      statement: 'Sign in to Quick Links.',
    })
    expect(parsed.issuedAt?.toISOString()).toBe(issuedAt.toISOString())
  })

  it('validates for its own domain and nonce only', () => {
    const message = buildSiweMessage({
      address: account.address,
      nonce: 'n0nce1234',
      origin: 'https://pay.example',
    })
    const parsed = parseSiweMessage(message)
    expect(validateSiweMessage({ message: parsed, domain: 'pay.example', nonce: 'n0nce1234' })).toBe(true)
    expect(validateSiweMessage({ message: parsed, domain: 'evil.example', nonce: 'n0nce1234' })).toBe(false)
    expect(validateSiweMessage({ message: parsed, domain: 'pay.example', nonce: 'other1234' })).toBe(false)
  })

  it('is signed by the wallet so that the signature recovers to its address', async () => {
    const message = buildSiweMessage({
      address: account.address,
      nonce: 'abcdefgh1',
      origin: 'http://localhost:3000',
    })
    const signature = await account.signMessage({ message })
    expect(await verifyMessage({ address: account.address, message, signature })).toBe(true)
  })

  it('rejects an origin that is no URL', () => {
    expect(() =>
      buildSiweMessage({ address: account.address, nonce: 'abcdefgh1', origin: 'localhost' }),
    ).toThrow()
  })
})
