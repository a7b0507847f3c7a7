// The wallet SDK's TOTP second factor (signer-store: addMfa, verifyMfa, getMfaFactors, removeMfa,
// submitOtpCode → AWAITING_MFA_AUTH, validateMultiFactors) against the real signer, with codes
// computed here from the secret the enrolment shows, as an authenticator app would.
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { createKeyStamper } from '@quicklinks/wallet/create-key-stamper'
import { createSignerStore, type SignerStore } from '@quicklinks/wallet/signer-store'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSignerApp } from '../src/build-signer-app.ts'
import { parseSignerEnv } from '../src/config/signer-env.ts'
import { migrateSignerDatabase } from '../src/db/migrate-signer-database.ts'
import { createRecordingDelivery, readCode } from './build-signer-test-app.ts'
import { createTestSignerClient } from './create-test-signer-client.ts'
import { createTotpCode } from './create-totp-code.ts'

let database: DatabaseClient
let app: FastifyInstance
let baseUrl: string
const delivery = createRecordingDelivery()
const stores: SignerStore[] = []

beforeAll(async () => {
  const config = parseSignerEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ql-wallet-mfa-test-')),
    PUBLIC_ORIGIN: 'http://localhost:3999',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '1000',
    SIGNER_MASTER_KEY: randomBytes(32).toString('hex'),
  })
  database = await createDatabaseClient({ kind: 'pglite' })
  await migrateSignerDatabase(database)
  app = await buildSignerApp(config, {
    database,
    logger: createLogger('silent'),
    delivery,
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})

afterAll(async () => {
  for (const store of stores) store.destroy()
  await app?.close()
  await database?.close()
})

/** A fresh SDK store (its own keys), as a new browser would have, on the signer's clock. */
async function createStore(): Promise<SignerStore> {
  const client = await createTestSignerClient(baseUrl)
  const store = createSignerStore({ client, stamper: createKeyStamper(), storage: null, eventTarget: null })
  stores.push(store)
  return store
}

async function signInByEmail(store: SignerStore, email: string): Promise<void> {
  await store.getState().authenticateWithEmail({ email })
  await store.getState().submitOtpCode(readCode(delivery.emails.at(-1)?.text ?? ''))
}

/** The app's code `steps` periods from now (the signer accepts the next step's code too). */
function codeFor(secret: string, steps = 0): string {
  return createTotpCode(secret, Date.now(), steps)
}

describe('wallet SDK: TOTP second factor on the real signer', () => {
  it('enrols, then a sign-in waits in AWAITING_MFA_AUTH until the app’s code, and removal works', async () => {
    const owner = await createStore()
    await signInByEmail(owner, 'sdk-totp@example.com')
    expect(owner.getState().status).toBe('CONNECTED')

    await expect(owner.getState().addMfa({ multiFactorType: 'sms', stepUp: {} })).rejects.toThrow(
      'Unsupported MFA factor type: sms',
    )
    // An authenticator app is a way in: not added on the session alone (docs/signer.md#step-up).
    await expect(owner.getState().addMfa({ multiFactorType: 'totp', stepUp: {} })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      details: { reason: 'STEP_UP_REQUIRED' },
    })
    expect(owner.getState().status).toBe('CONNECTED')
    const { otpId } = await owner
      .getState()
      .sendVerificationCode({ channel: 'email', contact: 'sdk-totp@example.com' })
    const { verificationToken } = await owner
      .getState()
      .verifyCode({ otpId, code: readCode(delivery.emails.at(-1)?.text ?? '') })
    const enrolment = await owner
      .getState()
      .addMfa({ multiFactorType: 'totp', stepUp: { verificationToken } })
    expect(enrolment.multiFactorTotpUrl).toMatch(/^otpauth:\/\/totp\//)
    expect(await owner.getState().getMfaFactors()).toEqual([])
    await expect(
      owner.getState().verifyMfa({ multiFactorId: enrolment.multiFactorId, multiFactorCode: '000000' }),
    ).rejects.toThrow('That code is not right. Enter the current code from your authenticator app.')
    // A refused code is not a refused session.
    expect(owner.getState().status).toBe('CONNECTED')
    const factors = await owner.getState().verifyMfa({
      multiFactorId: enrolment.multiFactorId,
      multiFactorCode: codeFor(enrolment.multiFactorSecret),
    })
    expect(factors.map((factor) => factor.multiFactorId)).toEqual([enrolment.multiFactorId])

    const browser = await createStore()
    await expect(browser.getState().validateMultiFactors({ multiFactorCode: '123456' })).rejects.toThrow(
      'No pending MFA context found. Call submitOtpCode() first.',
    )
    await signInByEmail(browser, 'sdk-totp@example.com')
    expect(browser.getState()).toMatchObject({
      status: 'AWAITING_MFA_AUTH',
      user: null,
      mfaStatus: { mfaRequired: true, mfaFactorId: enrolment.multiFactorId },
    })
    await expect(
      browser.getState().validateMultiFactors({ multiFactorCode: '123456', multiFactorId: 'another-factor' }),
    ).rejects.toThrow('MFA factor ID mismatch')

    // The next time step's code: a fresh one, though the enrolment's step has not ended yet.
    const code = codeFor(enrolment.multiFactorSecret, 1)
    const wrong = code === '000000' ? '111111' : '000000'
    await expect(browser.getState().validateMultiFactors({ multiFactorCode: wrong })).rejects.toThrow(
      'That code is not right. Enter the current code from your authenticator app.',
    )
    // The pending sign-in survives a typo.
    expect(browser.getState().mfaStatus).toEqual({ mfaRequired: true, mfaFactorId: enrolment.multiFactorId })
    await browser.getState().validateMultiFactors({ multiFactorCode: code })
    expect(browser.getState()).toMatchObject({
      status: 'CONNECTED',
      error: null,
      mfaStatus: { mfaRequired: false, mfaFactorId: null },
      user: { email: 'sdk-totp@example.com', orgId: owner.getState().user?.orgId },
    })
    await expect(browser.getState().validateMultiFactors({ multiFactorCode: code })).rejects.toThrow(
      'No pending MFA context found. Call submitOtpCode() first.',
    )

    // Removing it needs the step-up too, the app's code included (docs/signer.md#step-up); the
    // signer's route tests cover the removal itself (mfa-routes.test.ts).
    await expect(
      owner.getState().removeMfa({ multiFactorIds: [enrolment.multiFactorId], stepUp: {} }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', details: { reason: 'STEP_UP_REQUIRED' } })
    expect(await owner.getState().getMfaFactors()).toHaveLength(1)
  })
})
