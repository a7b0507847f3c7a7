// Route tests drive the standalone signer app (/signer/v1, with the CSRF check, rate limits and
// error handler the app server mounts it behind too), on a fresh PGlite from the signer's migrated
// snapshot (test/global-setup.ts).

import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { createLogger } from '@quicklinks/runtime/create-logger'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { createTestDatabase } from '@quicklinks/runtime/test/pglite-template'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildSignerApp } from '../src/build-signer-app.ts'
import type { SignerProcessConfig } from '../src/config/signer-env.ts'
import { decryptCredentialBundle } from '../src/crypto/bundles/decrypt-credential-bundle.ts'
import { createStamp } from '../src/crypto/stamps/create-stamp.ts'
import type { Delivery, SignerEmail, SignerSms } from '../src/delivery.ts'
import { createSignerTestConfig } from './create-signer-test-config.ts'

export const csrfToken = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

/** A delivery that keeps what it was asked to send, newest last: the network boundary, recorded. */
export type RecordingDelivery = Delivery & { emails: SignerEmail[]; sms: SignerSms[] }

export function createRecordingDelivery(): RecordingDelivery {
  const emails: SignerEmail[] = []
  const sms: SignerSms[] = []
  return {
    emails,
    sms,
    async sendEmail(message) {
      emails.push(message)
    },
    async sendSms(message) {
      sms.push(message)
    },
  }
}

/** A movable clock for the signer (codes, session keys, stamp freshness). */
export type TestClock = { now(): number; advance(ms: number): void }

export type SignerTestApp = {
  app: FastifyInstance
  database: DatabaseClient
  /** Every JSON log line the app wrote, parsed. */
  logs: Record<string, unknown>[]
  /** Closes the app, then the database. */
  close(): Promise<void>
  delivery: RecordingDelivery
  clock: TestClock
  /** POSTs JSON to /signer/v1/{path} with the CSRF cookie and header, as the SDK does. */
  post(path: string, body: unknown, options?: { remoteAddress?: string }): Promise<LightMyRequestResponse>
}

export async function buildSignerTestApp(
  overrides: Partial<SignerProcessConfig> = {},
): Promise<SignerTestApp> {
  const delivery = createRecordingDelivery()
  let offsetMs = 0
  const clock: TestClock = {
    now: () => Date.now() + offsetMs,
    advance: (ms) => {
      offsetMs += ms
    },
  }
  const config = createSignerTestConfig({ sms: { provider: 'dev' }, ...overrides })
  const database = await createTestDatabase()
  const logs: Record<string, unknown>[] = []
  const logger = createLogger(config.logLevel, {
    write: (line: string) => {
      logs.push(JSON.parse(line) as Record<string, unknown>)
    },
  })
  const app = await buildSignerApp(config, { database, logger, delivery, signerNow: clock.now })
  return {
    app,
    database,
    logs,
    close: async () => {
      await app.close()
      await database.close()
    },
    delivery,
    clock,
    post: (path, body, options = {}) =>
      app.inject({
        method: 'POST',
        url: `/signer/v1/${path}`,
        cookies: { csrf_token: csrfToken },
        headers: { 'x-csrf-token': csrfToken },
        payload: body as Record<string, unknown>,
        ...(options.remoteAddress === undefined ? {} : { remoteAddress: options.remoteAddress }),
      }),
  }
}

/** An auth or export frame's P-256 key: the private scalar (hex) and the uncompressed public key. */
export function createFrameKey(): { privateKey: string; targetPublicKey: string } {
  const privateKey = p256.utils.randomSecretKey()
  return {
    privateKey: bytesToHex(privateKey),
    targetPublicKey: bytesToHex(p256.getPublicKey(privateKey, false)),
  }
}

/** The 6-digit code in a mail or SMS body. */
export function readCode(text: string): string {
  const match = /\b(\d{6})\b/.exec(text)
  if (!match?.[1]) throw new Error(`No 6-digit code in: ${text}`)
  return match[1]
}

/** A signed-in client: the session key it opened from its credential bundle. */
export type SignedInClient = {
  orgId: string
  sessionPrivateKey: Uint8Array
  sessionPublicKey: string
  isNewUser: boolean
}

/** The full e-mail code sign-in through the init call: auth, read the mailed code, otp, open the bundle. */
export async function signInByEmail(
  testApp: SignerTestApp,
  email: string,
  options: { expirationSeconds?: number } = {},
): Promise<SignedInClient & { frame: ReturnType<typeof createFrameKey> }> {
  const frame = createFrameKey()
  const auth = await testApp.post('auth', { email, emailMode: 'otp', targetPublicKey: frame.targetPublicKey })
  if (auth.statusCode !== 200) throw new Error(`auth failed: ${auth.body}`)
  const { orgId, otpId } = auth.json<{ orgId: string; otpId: string }>()
  const mail = testApp.delivery.emails.at(-1)
  if (mail === undefined) throw new Error('no mail was sent')
  const otp = await testApp.post('otp', {
    orgId,
    otpId,
    otpCode: readCode(mail.text),
    targetPublicKey: frame.targetPublicKey,
    ...options,
  })
  if (otp.statusCode !== 200) throw new Error(`otp failed: ${otp.body}`)
  const { credentialBundle, isNewUser } = otp.json<{ credentialBundle: string; isNewUser: boolean }>()
  const session = await decryptCredentialBundle({
    bundle: credentialBundle,
    embeddedPrivateKey: frame.privateKey,
  })
  return {
    orgId,
    sessionPrivateKey: session.privateKey,
    sessionPublicKey: session.publicKey,
    isNewUser,
    frame,
  }
}

/** The inner body of a stamped call, as the SDK serialises it. */
export function buildStampedBody(input: {
  type: string
  organizationId: string
  parameters: Record<string, unknown>
  timestampMs: number
}): string {
  return JSON.stringify({
    type: input.type,
    timestampMs: String(input.timestampMs),
    organizationId: input.organizationId,
    parameters: input.parameters,
  })
}

/** The outer `{stampedRequest}` body for a route: the inner body string and its X-Stamp. */
export function stampRequest(
  path: string,
  privateKey: Uint8Array,
  body: string,
): {
  stampedRequest: { url: string; body: string; stamp: { stampHeaderName: string; stampHeaderValue: string } }
} {
  return {
    stampedRequest: {
      url: `http://localhost:3999/signer/v1/${path}`,
      body,
      stamp: { stampHeaderName: 'X-Stamp', stampHeaderValue: createStamp({ privateKey, body }) },
    },
  }
}

/** Builds, stamps and POSTs a stamped call at the signer's current time. */
export function postStamped(
  testApp: SignerTestApp,
  path: string,
  client: SignedInClient,
  input: { type: string; parameters?: Record<string, unknown>; timestampMs?: number },
): Promise<LightMyRequestResponse> {
  const body = buildStampedBody({
    type: input.type,
    organizationId: client.orgId,
    parameters: input.parameters ?? {},
    timestampMs: input.timestampMs ?? testApp.clock.now(),
  })
  return testApp.post(path, stampRequest(path, client.sessionPrivateKey, body))
}

/**
 * A `verify-otp` token for `contact` (init-otp, the code as delivered, verify-otp): what a step-up
 * by a code to an existing contact carries as `stepUp.verificationToken` (docs/signer.md#step-up).
 */
export async function proveContact(
  testApp: SignerTestApp,
  contact: { email: string } | { phone: string },
): Promise<string> {
  const isEmail = 'email' in contact
  const init = await testApp.post('init-otp', {
    otpType: isEmail ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS',
    contact: isEmail ? contact.email : contact.phone,
  })
  if (init.statusCode !== 200) throw new Error(`init-otp failed: ${init.body}`)
  const sent = isEmail ? testApp.delivery.emails.at(-1)?.text : testApp.delivery.sms.at(-1)?.body
  const verify = await testApp.post('verify-otp', { otpId: init.json().otpId, otpCode: readCode(sent ?? '') })
  if (verify.statusCode !== 200) throw new Error(`verify-otp failed: ${verify.body}`)
  return verify.json<{ verificationToken: string }>().verificationToken
}
