// The wallet SDK's custom-JWT sign-in (store.authenticateWithJwt) against the real signer, configured
// the way an operator does it: JWT_PROVIDERS parsed by the shared environment parser, naming an
// issuer whose JSON Web Key Set this test serves over HTTP on loopback.
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { createKeyStamper } from '@quicklinks/wallet/create-key-stamper'
import { createSignerStore, type SignerStore } from '@quicklinks/wallet/signer-store'
import type { FastifyInstance } from 'fastify'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSignerApp } from '../src/build-signer-app.ts'
import { parseSignerEnv } from '../src/config/signer-env.ts'
import { migrateSignerDatabase } from '../src/db/migrate-signer-database.ts'
import { createTestSignerClient } from './create-test-signer-client.ts'
import { createTotpCode } from './create-totp-code.ts'

const issuer = 'https://issuer.sdk-test.example'
const audience = 'quick-links-sdk-test'

let jwksServer: Server
let database: DatabaseClient
let app: FastifyInstance
let baseUrl: string
/** What an app's backend does: mints a token for `subject` bound to the sign-in's `nonce`. */
let signToken: (subject: string) => (input: { nonce: string }) => Promise<string>
const stores: SignerStore[] = []

beforeAll(async () => {
  const keys = await generateKeyPair('ES256')
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256' }
  jwksServer = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve))
  const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`
  signToken =
    (subject) =>
    ({ nonce }) =>
      new SignJWT({ sub: subject, nonce })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(keys.privateKey)

  const config = parseSignerEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ql-wallet-jwt-test-')),
    PUBLIC_ORIGIN: 'http://localhost:3999',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '1000',
    SIGNER_MASTER_KEY: randomBytes(32).toString('hex'),
    JWT_PROVIDERS: JSON.stringify([{ id: 'sdk-test', issuer, jwksUrl, audience }]),
  })
  database = await createDatabaseClient({ kind: 'pglite' })
  await migrateSignerDatabase(database)
  app = await buildSignerApp(config, {
    database,
    logger: createLogger('silent'),
    delivery: { sendEmail: async () => undefined, sendSms: async () => undefined },
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})

afterAll(async () => {
  for (const store of stores) store.destroy()
  await app?.close()
  await database?.close()
  await new Promise((resolve) => jwksServer?.close(resolve))
})

/** A fresh SDK store (its own session key), as a new browser would have. */
async function createStore(): Promise<SignerStore> {
  const client = await createTestSignerClient(baseUrl)
  const store = createSignerStore({ client, stamper: createKeyStamper(), storage: null, eventTarget: null })
  stores.push(store)
  return store
}

describe('wallet SDK: custom JWT sign-in on the real signer', () => {
  it('signs a new user in with a JWT, signs with the wallet, and finds the same user for the same subject', async () => {
    const first = await createStore()
    await first.getState().authenticateWithJwt({ jwt: signToken('alice'), authProvider: 'sdk-test' })
    const { status, isNewUser, user } = first.getState()
    expect({ status, isNewUser }).toEqual({ status: 'CONNECTED', isNewUser: true })
    expect(user).toMatchObject({ address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), email: null })

    const signature = await first.getState().toViemAccount().signMessage({ message: 'hello' })
    expect(await verifyMessage({ address: user?.address ?? '0x', message: 'hello', signature })).toBe(true)

    const again = await createStore()
    await again.getState().authenticateWithJwt({ jwt: signToken('alice'), authProvider: 'sdk-test' })
    expect(again.getState()).toMatchObject({ status: 'CONNECTED', isNewUser: false })
    expect(again.getState().user).toEqual(user)

    const other = await createStore()
    await other.getState().authenticateWithJwt({ jwt: signToken('bob'), authProvider: 'sdk-test' })
    expect(other.getState().isNewUser).toBe(true)
    expect(other.getState().user?.address).not.toBe(user?.address)
  })

  it('asks an account with an authenticator app for its code: AWAITING_MFA_AUTH, then validateMultiFactors connects', async () => {
    const owner = await createStore()
    let nonce = ''
    await owner.getState().authenticateWithJwt({
      jwt: (input) => {
        nonce = input.nonce
        return signToken('carol')(input)
      },
      authProvider: 'sdk-test',
    })
    // A custom-JWT account re-authenticates with a fresh token of its own, minted for this browser's
    // frame key like the sign-in's (docs/signer.md#step-up).
    const enrolment = await owner
      .getState()
      .addMfa({ multiFactorType: 'totp', stepUp: { jwt: await signToken('carol')({ nonce }) } })
    const codeFor = (steps: number) => createTotpCode(enrolment.multiFactorSecret, Date.now(), steps)
    await owner.getState().verifyMfa({ multiFactorId: enrolment.multiFactorId, multiFactorCode: codeFor(0) })

    const browser = await createStore()
    await browser.getState().authenticateWithJwt({ jwt: signToken('carol'), authProvider: 'sdk-test' })
    expect(browser.getState()).toMatchObject({
      status: 'AWAITING_MFA_AUTH',
      user: null,
      mfaStatus: { mfaRequired: true, mfaFactorId: enrolment.multiFactorId },
    })
    await browser.getState().validateMultiFactors({ multiFactorCode: codeFor(1) })
    expect(browser.getState()).toMatchObject({
      status: 'CONNECTED',
      mfaStatus: { mfaRequired: false, mfaFactorId: null },
      user: { orgId: owner.getState().user?.orgId, userId: owner.getState().user?.userId },
    })
  })

  it("stores a refused token's message and stays DISCONNECTED", async () => {
    const store = await createStore()
    await expect(
      store.getState().authenticateWithJwt({ jwt: 'garbage', authProvider: 'sdk-test' }),
    ).rejects.toThrow(/^Invalid token specified: /)
    expect(store.getState()).toMatchObject({
      status: 'DISCONNECTED',
      user: null,
      error: { message: expect.stringMatching(/^Invalid token specified: /) },
    })
    // A genuine token minted for another browser's key: refused, saying why.
    const foreign = await signToken('dave')({ nonce: 'f'.repeat(64) })
    await expect(
      store.getState().authenticateWithJwt({ jwt: foreign, authProvider: 'sdk-test' }),
    ).rejects.toThrow(
      'The token was minted for another sign-in (its nonce is not that of this targetPublicKey).',
    )
  })
})
