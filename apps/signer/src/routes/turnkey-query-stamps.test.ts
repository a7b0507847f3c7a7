// Freshness of Turnkey query stamps (docs/signer.md#query-stamps, issue 29): a query body that
// carries `timestampMs` is held to the 60 s window; a stock client's body without one is accepted
// (bound to the live session key), unless SIGNER_QUERY_TIMESTAMP_REQUIRED refuses it, so a copied
// query stamp cannot be replayed later.
import { bytesToHex } from '@noble/hashes/utils.js'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { type TurnkeyApiTypes, TurnkeyClient, TurnkeyRequestError } from '@turnkey/http'
import { afterEach, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'

type WhoamiBody = TurnkeyApiTypes['v1GetWhoamiRequest']

/** A listening signer, a signed-in user, and a stock Turnkey client holding its session key. */
async function setUp(overrides: { signerQueryTimestampRequired?: boolean } = {}) {
  const testApp = await buildSignerTestApp(overrides)
  const baseUrl = `${await testApp.app.listen({ port: 0, host: '127.0.0.1' })}/signer/v1`
  const client = await signInByEmail(testApp, 'query@example.com')
  const stamper = new ApiKeyStamper({
    apiPublicKey: client.sessionPublicKey,
    apiPrivateKey: bytesToHex(client.sessionPrivateKey),
  })
  return { testApp, baseUrl, client, turnkey: new TurnkeyClient({ baseUrl }, stamper) }
}

/** A query body with a `timestampMs` (a field Turnkey's generated types do not list). */
function withTimestamp(client: SignedInClient, timestampMs: number): WhoamiBody {
  const body = { organizationId: client.orgId, timestampMs: String(timestampMs) }
  return body
}

/** The refusal a Turnkey client throws, as `{code, reason}`. */
async function refusalOf(promise: Promise<unknown>): Promise<{ code: unknown; reason: unknown }> {
  try {
    await promise
  } catch (error) {
    if (!(error instanceof TurnkeyRequestError)) throw error
    const details = (error.details ?? []) as { reason?: string }[]
    return { code: error.code, reason: details[0]?.reason }
  }
  throw new Error('expected a refusal')
}

describe('query stamps', () => {
  let testApp: SignerTestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('refuses a query stamp dated more than 60 s ago or 5 s ahead, and takes a fresh one once', async () => {
    const setup = await setUp()
    testApp = setup.testApp
    const now = setup.testApp.clock.now()
    expect(await refusalOf(setup.turnkey.getWhoami(withTimestamp(setup.client, now - 61_000)))).toEqual({
      code: 'UNAUTHORIZED',
      reason: 'TIMESTAMP_STALE',
    })
    expect(await refusalOf(setup.turnkey.getWhoami(withTimestamp(setup.client, now + 6_000)))).toEqual({
      code: 'UNAUTHORIZED',
      reason: 'TIMESTAMP_FUTURE',
    })
    const fresh = withTimestamp(setup.client, now)
    expect((await setup.turnkey.getWhoami(fresh)).organizationId).toBe(setup.client.orgId)
    expect(await refusalOf(setup.turnkey.getWhoami(fresh))).toEqual({ code: 'CONFLICT', reason: 'REPLAYED' })
  })

  it('refuses a copied query stamp replayed later', async () => {
    const setup = await setUp()
    testApp = setup.testApp
    // The attacker copies a genuine, timestamped query off a proxy log and sends it 2 minutes on.
    const copied = await setup.turnkey.stampGetWhoami(withTimestamp(setup.client, setup.testApp.clock.now()))
    setup.testApp.clock.advance(120_000)
    const replay = await fetch(copied.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [copied.stamp.stampHeaderName]: copied.stamp.stampHeaderValue,
      },
      body: copied.body,
    })
    expect(replay.status).toBe(401)
    expect(await replay.json()).toMatchObject({ details: [{ reason: 'TIMESTAMP_STALE' }] })
  })

  it('keeps a stock client working by default: its query without timestampMs is bound to the live key only', async () => {
    const setup = await setUp()
    testApp = setup.testApp
    const whoami = await setup.turnkey.getWhoami({ organizationId: setup.client.orgId })
    expect(whoami.organizationId).toBe(setup.client.orgId)
  })

  it('with SIGNER_QUERY_TIMESTAMP_REQUIRED, refuses a query without timestampMs, even a copied genuine one', async () => {
    const setup = await setUp({ signerQueryTimestampRequired: true })
    testApp = setup.testApp
    const copied = await setup.turnkey.stampGetWhoami({ organizationId: setup.client.orgId })
    setup.testApp.clock.advance(120_000)
    const replay = await fetch(copied.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [copied.stamp.stampHeaderName]: copied.stamp.stampHeaderValue,
      },
      body: copied.body,
    })
    expect(replay.status).toBe(400)
    expect(await replay.json()).toMatchObject({ details: [{ reason: 'TIMESTAMP_MISSING' }] })
    expect(await refusalOf(setup.turnkey.getWallets({ organizationId: setup.client.orgId }))).toEqual({
      code: 'BAD_REQUEST',
      reason: 'TIMESTAMP_MISSING',
    })
    // The same client, dating its queries, reads as before.
    const dated = withTimestamp(setup.client, setup.testApp.clock.now())
    expect((await setup.turnkey.getWhoami(dated)).organizationId).toBe(setup.client.orgId)
  })
})
