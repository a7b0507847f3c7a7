import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  postStamped,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'
import { signerAuthMethods } from '../db/signer-schema.ts'

describe('list-auth-methods', () => {
  let testApp: SignerTestApp
  let owner: SignedInClient
  let ownerUserId: string
  beforeAll(async () => {
    testApp = await buildSignerTestApp()
    owner = await signInByEmail(testApp, 'lister@example.com')
    const whoami = await postStamped(testApp, 'whoami', owner, { type: 'ACTIVITY_TYPE_WHOAMI' })
    ownerUserId = whoami.json().userId
  })
  afterAll(async () => {
    await testApp.close()
  })

  const list = (client: SignedInClient, parameters: Record<string, unknown> = {}) =>
    postStamped(testApp, 'list-auth-methods', client, { type: 'ACTIVITY_TYPE_LIST_AUTH_METHODS', parameters })

  it('lists the e-mail alone for a fresh e-mail account', async () => {
    const response = await list(owner)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      email: 'lister@example.com',
      phone: null,
      oauthProviders: [],
      passkeys: [],
    })
  })

  it('lists passkeys and linked providers from their rows, oldest first, and nobody else’s', async () => {
    const other = await signInByEmail(testApp, 'someone-else@example.com')
    const otherUserId = (await postStamped(testApp, 'whoami', other, { type: 'ACTIVITY_TYPE_WHOAMI' })).json()
      .userId
    await testApp.database.db.insert(signerAuthMethods).values([
      {
        userId: ownerUserId,
        type: 'passkey',
        identifier: 'credential-one',
        data: { name: 'passkey-1700000000000', publicKey: 'secret-ish', counter: 0 },
        createdAt: new Date('2026-01-01T10:00:00.000Z'),
      },
      {
        userId: ownerUserId,
        type: 'passkey',
        identifier: 'credential-two',
        data: {},
        createdAt: new Date('2026-01-02T10:00:00.000Z'),
      },
      {
        userId: ownerUserId,
        type: 'oauth',
        identifier: 'https://accounts.google.com|1234567890',
        data: { providerId: 'google', email: 'lister@gmail.com' },
        createdAt: new Date('2026-01-03T10:00:00.000Z'),
      },
      {
        userId: ownerUserId,
        type: 'jwt',
        identifier: 'https://issuer.example|subject-1',
        data: {},
      },
      {
        userId: otherUserId,
        type: 'passkey',
        identifier: 'credential-of-another',
        data: { name: 'not yours' },
      },
    ])

    const response = await list(owner)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      email: 'lister@example.com',
      phone: null,
      passkeys: [
        { id: 'credential-one', name: 'passkey-1700000000000', createdAt: '2026-01-01T10:00:00.000Z' },
        { id: 'credential-two', name: null, createdAt: '2026-01-02T10:00:00.000Z' },
      ],
      oauthProviders: [
        {
          providerId: 'google',
          issuer: 'https://accounts.google.com',
          subject: '1234567890',
          email: 'lister@gmail.com',
          createdAt: '2026-01-03T10:00:00.000Z',
        },
      ],
    })
    // The passkey's stored key material is not part of the answer.
    expect(response.body).not.toContain('secret-ish')
    expect((await list(other)).json().passkeys).toEqual([
      { id: 'credential-of-another', name: 'not yours', createdAt: expect.any(String) },
    ])
  })

  it('takes the optional suborgId when it is the stamped organization, and refuses another', async () => {
    expect((await list(owner, { suborgId: owner.orgId })).statusCode).toBe(200)
    const other = await signInByEmail(testApp, 'third@example.com')
    const refused = await list(owner, { suborgId: other.orgId })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.message).toBe('You can only list the sign-in methods of your own account.')
  })

  it('is a stamped call: an unstamped or foreign-stamped body is refused', async () => {
    const unstamped = await testApp.post('list-auth-methods', { organizationId: owner.orgId })
    expect(unstamped.statusCode).toBe(422)
    const other = await signInByEmail(testApp, 'fourth@example.com')
    // Stamped by another account's key but naming the owner's organization.
    const forged = await postStamped(
      testApp,
      'list-auth-methods',
      { ...other, orgId: owner.orgId },
      { type: 'ACTIVITY_TYPE_LIST_AUTH_METHODS' },
    )
    expect([401, 403]).toContain(forged.statusCode)
    expect(forged.body).not.toContain('lister@example.com')
  })
})
