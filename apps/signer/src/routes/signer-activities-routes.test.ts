import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  postStamped,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'

// The protocol's table is what the SDK and the frames build their calls from: each of its paths
// must be a stamped route of the signer, checking exactly its activity type.
describe('the stamped routes of the protocol’s activity table', () => {
  let testApp: SignerTestApp
  let client: SignedInClient
  beforeAll(async () => {
    // The multi-owner paths answer 403 before anything else unless the setting is on.
    testApp = await buildSignerTestApp({ multiOwnerEnabled: true })
    client = await signInByEmail(testApp, 'table@example.com')
  })
  afterAll(async () => {
    await testApp.close()
  })

  it.each(Object.entries(signerActivities))(
    '%s: the route takes only its own activity type',
    async (_, activity) => {
      const otherType =
        activity.type === 'ACTIVITY_TYPE_WHOAMI' ? 'ACTIVITY_TYPE_GET' : 'ACTIVITY_TYPE_WHOAMI'
      const response = await postStamped(testApp, activity.path, client, { type: otherType })
      expect(response.statusCode).toBe(422)
      expect(response.json().error).toMatchObject({
        field: 'type',
        message: `type: must be ${activity.type} for this endpoint`,
      })
    },
  )
})
