// Every multi-owner path and its refusals on one test signer, in one file because the tests walk
// one organization through its states in order (hence over 300 lines).
import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { pollActivity } from '@quicklinks/wallet/poll-activity'
import { type Address, concatHex, type Hex, hashMessage, recoverAddress } from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  buildStampedBody,
  postStamped,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
  stampRequest,
} from '../../test/build-signer-test-app.ts'
import type { SoftwarePasskey } from '../../test/software-passkey.ts'
import { addStepUpPasskey, postPasskeyStamped } from '../../test/step-up-passkey.ts'
import { getMultiOwnerAccountAddress } from '../services/multi-owner/multi-owner-account.ts'

type Activity = {
  id: string
  type: string
  status: string
  result?: Record<string, unknown> & {
    consensus?: { approvalMessage: string; approvedBy: string[]; required: number; expiresAt: string }
  }
}

const multiOwnerPaths = [
  signerActivities.multiOwnerCreate,
  signerActivities.multiOwnerPrepareAdd,
  signerActivities.multiOwnerAdd,
  signerActivities.multiOwnerPrepareDelete,
  signerActivities.multiOwnerDelete,
  signerActivities.multiOwnerUpdateRootQuorum,
  signerActivities.multiOwnerSignRawPayload,
]

const someHash: Hex = '0x8e0f3c3e6fbbf6d1a5b9d9a8c0b1a2f3e4d5c6b7a8990011223344556677889a'

describe('multi-owner paths, MULTI_OWNER_ENABLED off (the default)', () => {
  let testApp: SignerTestApp
  let client: SignedInClient
  beforeAll(async () => {
    testApp = await buildSignerTestApp()
    client = await signInByEmail(testApp, 'multi-owner-off@example.com')
  })
  afterAll(async () => {
    await testApp.close()
  })

  it.each(multiOwnerPaths)('$path answers 403 with a clear message', async ({ path, type }) => {
    const response = await postStamped(testApp, path, client, { type, parameters: { members: [] } })
    expect(response.statusCode).toBe(403)
    expect(response.json().error.message).toBe('Multi-owner accounts are not enabled on this server.')
  })
})

describe('multi-owner paths, MULTI_OWNER_ENABLED on', () => {
  let testApp: SignerTestApp
  let alice: SignedInClient
  let mallory: SignedInClient
  let wallet: Address
  const member1 = privateKeyToAccount(generatePrivateKey())
  const member2 = privateKeyToAccount(generatePrivateKey())
  const outsider = privateKeyToAccount(generatePrivateKey())

  beforeAll(async () => {
    testApp = await buildSignerTestApp({ multiOwnerEnabled: true })
    alice = await signInByEmail(testApp, 'alice-multi@example.com')
    mallory = await signInByEmail(testApp, 'mallory-multi@example.com')
    wallet = (await postStamped(testApp, 'whoami', alice, { type: 'ACTIVITY_TYPE_WHOAMI' })).json().address
    await addPasskey(alice, 'alice-multi@example.com')
    await addPasskey(mallory, 'mallory-multi@example.com')
  })
  afterAll(async () => {
    await testApp.close()
  })

  /**
   * Membership changes need the step-up (docs/signer.md#step-up): each client stamps them with a
   * passkey of its own (test/step-up-passkey.ts).
   */
  const passkeys = new Map<SignedInClient, SoftwarePasskey>()
  async function addPasskey(client: SignedInClient, email: string) {
    passkeys.set(client, await addStepUpPasskey(testApp, client, email))
  }

  async function stamped(
    client: SignedInClient,
    activity: { path: string; type: string; stepUp: string },
    parameters: Record<string, unknown>,
  ) {
    const passkey = passkeys.get(client)
    if (activity.stepUp !== 'reauth' || passkey === undefined) {
      return postStamped(testApp, activity.path, client, { type: activity.type, parameters })
    }
    return postPasskeyStamped(testApp, passkey, activity.path, {
      organizationId: client.orgId,
      type: activity.type,
      parameters,
    })
  }

  async function activityOf(response: { statusCode: number; json(): { activity: Activity } }) {
    expect(response.statusCode, JSON.stringify(response.json())).toBe(200)
    return response.json().activity
  }

  async function approve(
    path: string,
    activity: Activity,
    member: PrivateKeyAccount,
    activityId = activity.id,
  ) {
    const message = activity.result?.consensus?.approvalMessage
    if (message === undefined) throw new Error('the activity has no approval message')
    const signature = await member.signMessage({ message })
    // Approving a signature is signing it too: the member's share over the payload hash.
    const payloadSignature =
      path === signerActivities.multiOwnerSignRawPayload.path
        ? await member.sign({ hash: someHash })
        : undefined
    return testApp.post(path, {
      approval: { activityId, evmSignerAddress: member.address, signature, payloadSignature },
    })
  }

  async function getActivity(client: SignedInClient, activityId: string): Promise<Activity> {
    return activityOf(await stamped(client, signerActivities.getActivity, { activityId }))
  }

  it('creates a 2-of-2 organization: the wallet and the member, and their account address', async () => {
    const response = await stamped(alice, signerActivities.multiOwnerCreate, {
      members: [{ evmSignerAddress: member1.address }],
      rootQuorumThreshold: 2,
    })
    expect(response.statusCode, response.body).toBe(200)
    const { result } = response.json()
    expect(result).toEqual({
      orgId: alice.orgId,
      evmSignerAddress: wallet,
      members: [{ evmSignerAddress: wallet }, { evmSignerAddress: member1.address }],
      rootQuorumThreshold: 2,
      accountAddress: getMultiOwnerAccountAddress([wallet, member1.address], 2),
    })

    const again = await stamped(alice, signerActivities.multiOwnerCreate, { members: [] })
    expect(again.statusCode).toBe(409)
  })

  it('signs a payload only once the quorum approved: CONSENSUS_NEEDED with one approval, COMPLETED with two', async () => {
    const asked = await activityOf(
      await stamped(alice, signerActivities.multiOwnerSignRawPayload, {
        signWith: wallet,
        payload: someHash,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      }),
    )
    expect(asked.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(asked.result?.consensus).toMatchObject({ approvedBy: [wallet], required: 2 })
    expect(asked.result?.signature).toBeUndefined()

    // Polled the way the SDK polls: CONSENSUS_NEEDED throws the documented error.
    const seen = await getActivity(alice, asked.id)
    expect(seen.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    await expect(
      pollActivity({ activity: seen, getActivity: (id) => getActivity(alice, id), intervalMs: 1 }),
    ).rejects.toThrow(
      `Failed to get activity with with id ${asked.id} (status: ACTIVITY_STATUS_CONSENSUS_NEEDED)`,
    )

    // Attacks: an outsider's approval, an approval signed for another activity.
    const byOutsider = await approve(signerActivities.multiOwnerSignRawPayload.path, asked, outsider)
    expect(byOutsider.statusCode).toBe(403)
    expect(byOutsider.json().error.details.reason).toBe('NOT_A_MEMBER')
    const other = await activityOf(
      await stamped(alice, signerActivities.multiOwnerSignRawPayload, {
        signWith: wallet,
        payload: someHash,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      }),
    )
    const forOther = await approve(signerActivities.multiOwnerSignRawPayload.path, other, member1, asked.id)
    expect(forOther.statusCode).toBe(403)
    expect(forOther.json().error.details.reason).toBe('APPROVAL_SIGNATURE_INVALID')
    // Claiming another member's address with one's own signature.
    const message = asked.result?.consensus?.approvalMessage ?? ''
    const impostor = await testApp.post(signerActivities.multiOwnerSignRawPayload.path, {
      approval: {
        activityId: asked.id,
        evmSignerAddress: member1.address,
        signature: await outsider.signMessage({ message }),
      },
    })
    expect(impostor.statusCode).toBe(403)
    // At another path (another activity type), the approval names no activity.
    const wrongPath = await approve(signerActivities.multiOwnerAdd.path, asked, member1)
    expect(wrongPath.statusCode).toBe(404)
    // A member's approval without its own signature of the payload, or with another key's, or
    // with its signature of another hash: refused, nothing counted.
    const approvalOf = async (payloadSignature?: Hex) => ({
      approval: {
        activityId: asked.id,
        evmSignerAddress: member1.address,
        signature: await member1.signMessage({ message }),
        ...(payloadSignature === undefined ? {} : { payloadSignature }),
      },
    })
    const path = signerActivities.multiOwnerSignRawPayload.path
    const unsigned = await testApp.post(path, await approvalOf())
    expect(unsigned.statusCode).toBe(422)
    expect(unsigned.json().error.field).toBe('approval.payloadSignature')
    for (const payloadSignature of [
      await outsider.sign({ hash: someHash }),
      await member1.sign({ hash: hashMessage('another payload') }),
    ]) {
      const refused = await testApp.post(path, await approvalOf(payloadSignature))
      expect(refused.statusCode).toBe(403)
      expect(refused.json().error.details.reason).toBe('PAYLOAD_SIGNATURE_INVALID')
    }
    expect((await getActivity(alice, asked.id)).status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')

    const completed = await activityOf(
      await approve(signerActivities.multiOwnerSignRawPayload.path, asked, member1),
    )
    expect(completed.status).toBe('ACTIVITY_STATUS_COMPLETED')
    // The account's format: both members' 65-byte signatures of the hash, by increasing address.
    const shares = completed.result?.signatures as { evmSignerAddress: Address; signature: Hex }[]
    expect(shares.map((share) => share.evmSignerAddress)).toEqual(
      [wallet, member1.address].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
    )
    for (const share of shares) {
      expect(await recoverAddress({ hash: someHash, signature: share.signature })).toBe(
        share.evmSignerAddress,
      )
    }
    expect(completed.result?.signature).toBe(concatHex(shares.map((share) => share.signature)))
    expect(completed.result?.approvedBy).toEqual([
      { evmSignerAddress: wallet },
      { evmSignerAddress: member1.address },
    ])

    // The same approval again (a replay) and a second approval of a completed activity: refused.
    const replayed = await approve(signerActivities.multiOwnerSignRawPayload.path, asked, member1)
    expect(replayed.statusCode).toBe(409)
    expect(replayed.json().error.details.reason).toBe('NOT_AWAITING_CONSENSUS')
  })

  it('adds a member: prepare-add records the proposal, the session and a member approve, the members change', async () => {
    const prepared = await activityOf(
      await stamped(alice, signerActivities.multiOwnerPrepareAdd, {
        members: [{ evmSignerAddress: member2.address }],
      }),
    )
    expect(prepared.type).toBe(signerActivities.multiOwnerAdd.type)
    expect(prepared.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(prepared.result?.consensus).toMatchObject({ approvedBy: [], required: 2 })

    // The member approves first; a second approval by the same member is refused.
    const first = await activityOf(await approve(signerActivities.multiOwnerAdd.path, prepared, member1))
    expect(first.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const twice = await approve(signerActivities.multiOwnerAdd.path, prepared, member1)
    expect(twice.statusCode).toBe(409)
    expect(twice.json().error.details.reason).toBe('ALREADY_APPROVED')
    // The one to be added is not a member yet: its approval does not count.
    const byNewcomer = await approve(signerActivities.multiOwnerAdd.path, prepared, member2)
    expect(byNewcomer.statusCode).toBe(403)

    // Another organization's session cannot approve (or even see) it.
    const foreign = await stamped(mallory, signerActivities.multiOwnerAdd, { activityId: prepared.id })
    expect(foreign.statusCode).toBe(404)
    const foreignRead = await stamped(mallory, signerActivities.getActivity, { activityId: prepared.id })
    expect(foreignRead.statusCode).toBe(404)

    // The session's stamped add is the wallet member's approval: the second of two.
    const completed = await activityOf(
      await stamped(alice, signerActivities.multiOwnerAdd, { activityId: prepared.id }),
    )
    expect(completed.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(completed.result).toMatchObject({
      members: [
        { evmSignerAddress: wallet },
        { evmSignerAddress: member1.address },
        { evmSignerAddress: member2.address },
      ],
      rootQuorumThreshold: 2,
      accountAddress: getMultiOwnerAccountAddress([wallet, member1.address], 2),
      ownerUpdate: { added: [member2.address], removed: [], threshold: 2 },
    })
    const sessionTwice = await stamped(alice, signerActivities.multiOwnerAdd, { activityId: prepared.id })
    expect(sessionTwice.statusCode).toBe(409)
  })

  const signRequest = () => ({
    signWith: wallet,
    payload: someHash,
    encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
    hashFunction: 'HASH_FUNCTION_NO_OP',
  })

  it('removes a member with the quorum, never the wallet, never below the threshold', async () => {
    const theWallet = await stamped(alice, signerActivities.multiOwnerPrepareDelete, {
      members: [{ evmSignerAddress: wallet }],
    })
    expect(theWallet.statusCode).toBe(422)
    const notMember = await stamped(alice, signerActivities.multiOwnerPrepareDelete, {
      members: [{ evmSignerAddress: outsider.address }],
    })
    expect(notMember.statusCode).toBe(422)

    const prepared = await activityOf(
      await stamped(alice, signerActivities.multiOwnerPrepareDelete, {
        members: [{ evmSignerAddress: member2.address }],
      }),
    )
    expect(prepared.type).toBe(signerActivities.multiOwnerDelete.type)
    const half = await activityOf(
      await stamped(alice, signerActivities.multiOwnerDelete, { activityId: prepared.id }),
    )
    expect(half.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const removed = await activityOf(await approve(signerActivities.multiOwnerDelete.path, prepared, member2))
    expect(removed.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(removed.result).toMatchObject({
      members: [{ evmSignerAddress: wallet }, { evmSignerAddress: member1.address }],
      ownerUpdate: { added: [], removed: [member2.address], threshold: 2 },
    })

    // Two members left and a quorum of two: removing one more would leave the quorum unreachable.
    const belowThreshold = await stamped(alice, signerActivities.multiOwnerPrepareDelete, {
      members: [{ evmSignerAddress: member1.address }],
    })
    expect(belowThreshold.statusCode).toBe(422)
    // A removed member's approval no longer counts.
    const asked = await activityOf(
      await stamped(alice, signerActivities.multiOwnerSignRawPayload, signRequest()),
    )
    const byRemoved = await approve(signerActivities.multiOwnerSignRawPayload.path, asked, member2)
    expect(byRemoved.statusCode).toBe(403)
  })

  it('refuses a replayed stamped request and a session of another organization', async () => {
    const body = buildStampedBody({
      type: signerActivities.multiOwnerPrepareAdd.type,
      organizationId: alice.orgId,
      parameters: { members: [{ evmSignerAddress: outsider.address }] },
      timestampMs: testApp.clock.now(),
    })
    const request = stampRequest(signerActivities.multiOwnerPrepareAdd.path, alice.sessionPrivateKey, body)
    // The session's stamp alone changes no membership (docs/signer.md#step-up), and a body is heard once.
    const unproven = await testApp.post(signerActivities.multiOwnerPrepareAdd.path, request)
    expect(unproven.statusCode).toBe(403)
    expect(unproven.json().error.details.reason).toBe('STEP_UP_REQUIRED')
    expect((await testApp.post(signerActivities.multiOwnerPrepareAdd.path, request)).statusCode).toBe(409)

    // Mallory's key stamping a body that names Alice's organization.
    const forged = buildStampedBody({
      type: signerActivities.multiOwnerPrepareAdd.type,
      organizationId: alice.orgId,
      parameters: { members: [{ evmSignerAddress: outsider.address }] },
      timestampMs: testApp.clock.now(),
    })
    const response = await testApp.post(
      signerActivities.multiOwnerPrepareAdd.path,
      stampRequest(signerActivities.multiOwnerPrepareAdd.path, mallory.sessionPrivateKey, forged),
    )
    expect(response.statusCode).toBe(403)
    // Mallory has no multi-owner organization of her own.
    const none = await stamped(mallory, signerActivities.multiOwnerUpdateRootQuorum, {
      rootQuorumThreshold: 1,
    })
    expect(none.statusCode).toBe(404)
  })

  it('fails a waiting activity once the quorum changed, and one that expired', async () => {
    const pending = await activityOf(
      await stamped(alice, signerActivities.multiOwnerSignRawPayload, signRequest()),
    )
    expect(pending.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const lower = await activityOf(
      await stamped(alice, signerActivities.multiOwnerUpdateRootQuorum, { rootQuorumThreshold: 1 }),
    )
    expect(lower.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const lowered = await activityOf(
      await approve(signerActivities.multiOwnerUpdateRootQuorum.path, lower, member1),
    )
    expect(lowered.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(lowered.result?.rootQuorumThreshold).toBe(1)

    // Approved under the old quorum (another members' version): it fails instead of completing.
    const stale = await activityOf(
      await approve(signerActivities.multiOwnerSignRawPayload.path, pending, member1),
    )
    expect(stale.status).toBe('ACTIVITY_STATUS_FAILED')
    expect(stale.result?.signature).toBeUndefined()

    // A quorum of one: the session's own request completes at once.
    const alone = await activityOf(
      await stamped(alice, signerActivities.multiOwnerSignRawPayload, signRequest()),
    )
    expect(alone.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(await recoverAddress({ hash: someHash, signature: alone.result?.signature as Hex })).toBe(wallet)

    // Back to two; an approval that arrives after the hour is refused and the activity fails.
    const raised = await activityOf(
      await stamped(alice, signerActivities.multiOwnerUpdateRootQuorum, { rootQuorumThreshold: 2 }),
    )
    expect(raised.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const asked = await activityOf(
      await stamped(alice, signerActivities.multiOwnerSignRawPayload, signRequest()),
    )
    expect(asked.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    testApp.clock.advance(61 * 60_000)
    const late = await approve(signerActivities.multiOwnerSignRawPayload.path, asked, member1)
    expect(late.statusCode).toBe(409)
    expect(late.json().error.details.reason).toBe('EXPIRED')
    const again = await signInByEmail(testApp, 'alice-multi@example.com')
    const seen = await getActivity(again, asked.id)
    expect(seen.status).toBe('ACTIVITY_STATUS_FAILED')
    expect(seen.result?.signature).toBeUndefined()
  })
})
