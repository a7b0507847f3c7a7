// The step-up of route tests that make many changes of who can sign (docs/signer.md#step-up): a
// passkey added once with a code to the account's e-mail, then stamping each change itself, user
// verified, so the tests need no code per change (an address gets 3 codes per 3 minutes).

import type { LightMyRequestResponse } from 'fastify'
import {
  buildStampedBody,
  postStamped,
  proveContact,
  type SignedInClient,
  type SignerTestApp,
} from './build-signer-test-app.ts'
import { createSoftwarePasskey, type SoftwarePasskey } from './software-passkey.ts'

const origin = 'http://localhost:3999'

/** Adds a software passkey to the signed-in `client` (step-up: a code to `email`). */
export async function addStepUpPasskey(
  testApp: SignerTestApp,
  client: SignedInClient,
  email: string,
): Promise<SoftwarePasskey> {
  const passkey = createSoftwarePasskey({ origin, rpId: 'localhost' })
  const { challenge } = (await testApp.post('passkey-challenge', {})).json<{ challenge: string }>()
  const added = await postStamped(testApp, 'add-authenticator', client, {
    type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
    parameters: {
      challenge,
      attestation: passkey.attest(challenge),
      stepUp: { verificationToken: await proveContact(testApp, { email }) },
    },
  })
  if (added.statusCode !== 200) throw new Error(`add-authenticator failed: ${added.body}`)
  return passkey
}

/** POSTs a stamped call stamped by `passkey` (X-Stamp-WebAuthn, user verified) at the signer's time. */
export function postPasskeyStamped(
  testApp: SignerTestApp,
  passkey: SoftwarePasskey,
  path: string,
  input: { organizationId: string; type: string; parameters: Record<string, unknown> },
): Promise<LightMyRequestResponse> {
  const body = buildStampedBody({ ...input, timestampMs: testApp.clock.now() })
  return testApp.post(path, {
    stampedRequest: {
      url: `${origin}/signer/v1/${path}`,
      body,
      stamp: { stampHeaderName: 'X-Stamp-WebAuthn', stampHeaderValue: passkey.stamp(body) },
    },
  })
}
