// The wallet SDK's passkey calls (signer-client.ts) against the real signer over HTTP, with the
// software authenticator of software-passkey.ts standing in for the browser's WebAuthn prompt
// (the browser ceremony itself runs in e2e/specs/auth-passkey.spec.ts).
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppError } from '@quicklinks/core/app-error'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { createKeyStamper } from '@quicklinks/wallet/create-key-stamper'
import type { SignerClient } from '@quicklinks/wallet/signer-client'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSignerApp } from '../src/build-signer-app.ts'
import { parseSignerEnv } from '../src/config/signer-env.ts'
import { migrateSignerDatabase } from '../src/db/migrate-signer-database.ts'
import { createTestSignerClient } from './create-test-signer-client.ts'
import { createSoftwarePasskey } from './software-passkey.ts'

const origin = 'http://localhost:3999'
let database: DatabaseClient
let app: FastifyInstance
let baseUrl: string

beforeAll(async () => {
  const config = parseSignerEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ql-wallet-passkey-test-')),
    PUBLIC_ORIGIN: origin,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '1000',
    SIGNER_MASTER_KEY: randomBytes(32).toString('hex'),
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
  await app?.close()
  await database?.close()
})

async function createClient(): Promise<SignerClient> {
  return createTestSignerClient(baseUrl)
}

describe('wallet SDK: passkeys on the real signer', () => {
  it('signs up with a passkey, signs in with it, adds and removes a passkey, and finds no user for a stranger', async () => {
    const client = await createClient()
    const passkey = createSoftwarePasskey({ origin, rpId: 'localhost' })
    const stamper = createKeyStamper()

    const { challenge, rp } = await client.passkeyChallenge()
    expect(rp).toEqual({ id: 'localhost', name: 'localhost' })
    const signup = await client.signupWithPasskey({
      passkey: { challenge, attestation: passkey.attest(challenge) },
      targetPublicKey: await stamper.getPublicKey(),
      expirationSeconds: 900,
    })
    expect(signup).toMatchObject({ isNewUser: true, otpId: '', credentialBundle: expect.any(String) })

    // Sign in: the passkey stamps the stamp-login the client builds; the bundle opens in the stamper.
    const signedIn = await client.authPasskey(
      { targetPublicKey: await stamper.getPublicKey(), expirationSeconds: 900 },
      async (body) => ({ stampHeaderName: 'X-Stamp-WebAuthn', stampHeaderValue: passkey.stamp(body) }),
    )
    expect(signedIn).toMatchObject({ orgId: signup.orgId, isNewUser: false })
    await stamper.injectCredentialBundle({
      bundle: signedIn.credentialBundle,
      organizationId: signedIn.orgId,
      expiresAtMs: Date.now() + 900_000,
    })
    expect((await client.whoami(stamper, signedIn.orgId)).address).toBe(signup.address)

    const second = createSoftwarePasskey({ origin, rpId: 'localhost' })
    const next = await client.passkeyChallenge()
    // The step-up of a passkey account: its passkey stamps the change itself (user verified).
    const byPasskey = (key: typeof passkey) => ({
      stampWithPasskey: async (body: string) => ({
        stampHeaderName: 'X-Stamp-WebAuthn' as const,
        stampHeaderValue: key.stamp(body),
      }),
    })
    await expect(
      client.addPasskey(
        stamper,
        signedIn.orgId,
        { challenge: next.challenge, attestation: second.attest(next.challenge) },
        {},
      ),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', details: { reason: 'STEP_UP_REQUIRED' } })
    const again = await client.passkeyChallenge()
    const added = await client.addPasskey(
      stamper,
      signedIn.orgId,
      {
        challenge: again.challenge,
        attestation: second.attest(again.challenge),
        authenticatorName: 'Phone',
      },
      byPasskey(passkey),
    )
    expect(added).toMatchObject({ authenticatorId: second.credentialId, name: 'Phone' })
    const listed = await client.listAuthMethods(stamper, signedIn.orgId)
    expect(listed.passkeys.map((item) => item.id).sort()).toEqual(
      [passkey.credentialId, second.credentialId].sort(),
    )

    expect(
      await client.removePasskey(stamper, signedIn.orgId, passkey.credentialId, byPasskey(second)),
    ).toEqual({
      removed: true,
    })
    await expect(
      client.removePasskey(stamper, signedIn.orgId, second.credentialId, byPasskey(second)),
    ).rejects.toThrow('This is your only way to sign in. Add another one before you remove it.')

    const stranger = createSoftwarePasskey({ origin, rpId: 'localhost' })
    const refused = await client
      .authPasskey({ targetPublicKey: await stamper.getPublicKey() }, async (body) => ({
        stampHeaderName: 'X-Stamp-WebAuthn',
        stampHeaderValue: stranger.stamp(body),
      }))
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AppError)
    expect((refused as AppError).userMessage).toBe('No user found')
  })
})
