// The wallet SDK's multi-owner calls (signer-client: multiOwnerCreate … approveMultiOwnerActivity)
// against the real signer with MULTI_OWNER_ENABLED on; a quorum activity the SDK polls throws
// the documented error while it waits for approvals.
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { parseEnv } from '@quicklinks/runtime/env'
import { createKeyStamper } from '@quicklinks/wallet/create-key-stamper'
import { pollActivity } from '@quicklinks/wallet/poll-activity'
import { createSignerClient, type SignerClient } from '@quicklinks/wallet/signer-client'
import { createSignerStore, type SignerStore } from '@quicklinks/wallet/signer-store'
import type { Stamper } from '@quicklinks/wallet/stamper'
import type { FastifyInstance } from 'fastify'
import { type Hex, keccak256, recoverAddress, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSignerApp } from '../src/build-signer-app.ts'
import { migrateSignerDatabase } from '../src/db/migrate-signer-database.ts'
import { createRecordingDelivery, readCode } from './build-signer-test-app.ts'

let database: DatabaseClient
let app: FastifyInstance
let baseUrl: string
const delivery = createRecordingDelivery()
const stores: SignerStore[] = []

beforeAll(async () => {
  const config = parseEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ql-wallet-multi-owner-test-')),
    PUBLIC_ORIGIN: 'http://localhost:3999',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '1000',
    SIGNER_MASTER_KEY: randomBytes(32).toString('hex'),
    MULTI_OWNER_ENABLED: 'true',
  })
  expect(config.multiOwnerEnabled).toBe(true)
  database = await createDatabaseClient({ kind: 'pglite' })
  await migrateSignerDatabase(database)
  app = await buildSignerApp(config, { database, logger: createLogger('silent'), delivery })
  await app.listen({ port: 0, host: '127.0.0.1' })
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})

afterAll(async () => {
  for (const store of stores) store.destroy()
  await app?.close()
  await database?.close()
})

/** A signed-in SDK: its client, its stamper and the user's organization and address. */
async function signIn(email: string): Promise<{
  client: SignerClient
  stamper: Stamper
  orgId: string
  address: Hex
}> {
  const health = await fetch(`${baseUrl}/health`)
  const token = /csrf_token=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1]
  if (token === undefined) throw new Error('no CSRF cookie from /health')
  const client = createSignerClient({
    baseUrl,
    getHeaders: () => ({ 'x-csrf-token': token, cookie: `csrf_token=${token}` }),
  })
  const stamper = createKeyStamper()
  const store = createSignerStore({ client, stamper, storage: null, eventTarget: null })
  stores.push(store)
  await store.getState().authenticateWithEmail({ email })
  await store.getState().submitOtpCode(readCode(delivery.emails.at(-1)?.text ?? ''))
  const user = store.getState().user
  if (user === null) throw new Error('not signed in')
  return { client, stamper, orgId: user.orgId, address: user.address as Hex }
}

describe('wallet SDK: multi-owner on the real signer', () => {
  it('creates a 2-of-2 organization, signs once a member approved, and adds a member', async () => {
    const { client, stamper, orgId, address } = await signIn('sdk-multi-owner@example.com')
    const member = privateKeyToAccount(generatePrivateKey())
    const newcomer = privateKeyToAccount(generatePrivateKey())

    const created = await client.multiOwnerCreate(stamper, orgId, {
      members: [{ evmSignerAddress: member.address }],
      rootQuorumThreshold: 2,
    })
    expect(created.result).toMatchObject({
      orgId,
      evmSignerAddress: address,
      members: [{ evmSignerAddress: address }, { evmSignerAddress: member.address }],
      rootQuorumThreshold: 2,
    })

    const hash = keccak256(toHex('multi-owner payload'))
    const { activity } = await client.multiOwnerSignRawPayload(stamper, orgId, {
      signWith: address,
      payload: hash,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    })
    expect(activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    await expect(
      pollActivity({
        activity,
        getActivity: async (id) => (await client.getActivity(stamper, orgId, id)).activity,
      }),
    ).rejects.toThrow(
      `Failed to get activity with with id ${activity.id} (status: ACTIVITY_STATUS_CONSENSUS_NEEDED)`,
    )

    const message = activity.result?.consensus?.approvalMessage ?? ''
    const approved = await client.approveMultiOwnerActivity('multi-owner-sign-raw-payload', {
      activityId: activity.id,
      evmSignerAddress: member.address,
      signature: await member.signMessage({ message }),
    })
    expect(approved.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const signature = approved.activity.result?.signature
    if (signature === undefined) throw new Error('no signature')
    expect(await recoverAddress({ hash, signature })).toBe(address)

    // A refusal reaches the caller as the signer's message.
    await expect(
      client.approveMultiOwnerActivity('multi-owner-sign-raw-payload', {
        activityId: activity.id,
        evmSignerAddress: member.address,
        signature: await member.signMessage({ message }),
      }),
    ).rejects.toThrow('This activity no longer waits for approvals.')

    const prepared = await client.multiOwnerPrepareAdd(stamper, orgId, [
      { evmSignerAddress: newcomer.address },
    ])
    expect((await client.multiOwnerAdd(stamper, orgId, prepared.activity.id)).activity.status).toBe(
      'ACTIVITY_STATUS_CONSENSUS_NEEDED',
    )
    const added = await client.approveMultiOwnerActivity('multi-owner-add', {
      activityId: prepared.activity.id,
      evmSignerAddress: member.address,
      signature: await member.signMessage({
        message: prepared.activity.result?.consensus?.approvalMessage ?? '',
      }),
    })
    expect(added.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(added.activity.result?.members).toEqual([
      { evmSignerAddress: address },
      { evmSignerAddress: member.address },
      { evmSignerAddress: newcomer.address },
    ])
    expect(added.activity.result?.ownerUpdate?.added).toEqual([newcomer.address])

    const quorum = await client.multiOwnerUpdateRootQuorum(stamper, orgId, 3)
    expect(quorum.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const prepareDelete = await client.multiOwnerPrepareDelete(stamper, orgId, [
      { evmSignerAddress: newcomer.address },
    ])
    await expect(client.multiOwnerDelete(stamper, orgId, prepareDelete.activity.id)).resolves.toMatchObject({
      activity: { status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED' },
    })
  })
})
