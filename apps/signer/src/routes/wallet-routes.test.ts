import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { base58 } from '@scure/base'
import { mnemonicToSeedSync } from '@scure/bip39'
import { sql } from 'drizzle-orm'
import {
  type Hex,
  hashMessage,
  hashTypedData,
  keccak256,
  parseSignature,
  recoverAddress,
  recoverTransactionAddress,
  serializeTransaction,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { mnemonicToAccount, privateKeyToAddress } from 'viem/accounts'
import { hashAuthorization, recoverAuthorizationAddress } from 'viem/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  buildStampedBody,
  createFrameKey,
  postStamped,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
  stampRequest,
} from '../../test/build-signer-test-app.ts'
import { decryptCredentialBundle } from '../crypto/bundles/decrypt-credential-bundle.ts'
import { openExportBundle } from '../crypto/bundles/open-export-bundle.ts'
import { createSessionKey } from '../crypto/sessions/create-session-key.ts'
import { mintCredentialBundle } from '../services/sessions/mint-credential-bundle.ts'

type Whoami = { orgId: string; userId: string; address: Hex; solanaAddress: string; walletId: string }

const typedData = {
  domain: { name: 'Quick Links', version: '1', chainId: 8453 },
  types: {
    Payment: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Payment',
  message: { to: '0x000000000000000000000000000000000000dEaD', amount: 1_000_000n },
} as const

describe('stamped wallet routes', () => {
  // One app and one user; every test makes fresh bodies (the replay store would refuse repeats).
  let testApp: SignerTestApp
  let client: SignedInClient
  let me: Whoami
  beforeAll(async () => {
    testApp = await buildSignerTestApp()
    client = await signInByEmail(testApp, 'wallet@example.com')
    me = (await postStamped(testApp, 'whoami', client, { type: 'ACTIVITY_TYPE_WHOAMI' })).json()
  })
  afterAll(async () => {
    await testApp.close()
  })

  async function signHash(hash: Hex): Promise<Hex> {
    const response = await postStamped(testApp, 'sign-payload', client, {
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      parameters: {
        signWith: me.address,
        payload: hash,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      },
    })
    expect(response.statusCode).toBe(200)
    return response.json().signature
  }

  async function exportWith(
    path: 'export-wallet' | 'export-wallet-account',
    type: string,
    parameters: Record<string, unknown>,
  ): Promise<{
    bundle: string
    frame: ReturnType<typeof createFrameKey>
    activity: Record<string, unknown>
  }> {
    const frame = createFrameKey()
    const response = await postStamped(testApp, path, client, {
      type,
      parameters: { ...parameters, targetPublicKey: frame.targetPublicKey },
    })
    expect(response.statusCode).toBe(200)
    const { activity } = response.json()
    return { bundle: activity.result.exportBundle, frame, activity }
  }

  async function getPinnedKey(): Promise<string> {
    return (await testApp.post('signer-config', {})).json().exportSignerPublicKey
  }

  it('signs hashes that viem recovers to the user address: message, typed data, transaction, authorization', async () => {
    const messageSignature = await signHash(hashMessage('Sign in to Quick Links'))
    expect(messageSignature).toMatch(/^0x[0-9a-f]{130}$/)
    expect(
      await verifyMessage({
        address: me.address,
        message: 'Sign in to Quick Links',
        signature: messageSignature,
      }),
    ).toBe(true)
    expect(
      await recoverAddress({ hash: hashMessage('Sign in to Quick Links'), signature: messageSignature }),
    ).toBe(me.address)

    const typedSignature = await signHash(hashTypedData(typedData))
    expect(await verifyTypedData({ ...typedData, address: me.address, signature: typedSignature })).toBe(true)

    const transaction = {
      chainId: 8453,
      type: 'eip1559',
      to: '0x000000000000000000000000000000000000dEaD',
      value: 1n,
      nonce: 0,
      gas: 21_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
    } as const
    const transactionSignature = await signHash(keccak256(serializeTransaction(transaction)))
    const signed = serializeTransaction(transaction, parseSignature(transactionSignature))
    expect(await recoverTransactionAddress({ serializedTransaction: signed })).toBe(me.address)

    const authorization = {
      address: '0x000000000000000000000000000000000000bEEF',
      chainId: 8453,
      nonce: 1,
    } as const
    const authorizationSignature = await signHash(hashAuthorization(authorization))
    expect(
      await recoverAuthorizationAddress({ authorization, signature: parseSignature(authorizationSignature) }),
    ).toBe(me.address)
  })

  it('signs Solana message bytes with ed25519 under the Solana address, 64 bytes', async () => {
    const message = utf8ToBytes('solana message bytes')
    const response = await postStamped(testApp, 'sign-payload', client, {
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      parameters: {
        signWith: me.solanaAddress,
        payload: `0x${bytesToHex(message)}`,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
      },
    })
    expect(response.statusCode).toBe(200)
    const signature = hexToBytes(response.json().signature.slice(2))
    expect(signature).toHaveLength(64)
    expect(ed25519.verify(signature, message, base58.decode(me.solanaAddress))).toBe(true)
  })

  it('writes an activity for each signing, readable with get-activity', async () => {
    const response = await postStamped(testApp, 'sign-payload', client, {
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      parameters: {
        signWith: me.address.toLowerCase(),
        payload: hashMessage('activity'),
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      },
    })
    const { signature, activity } = response.json()
    expect(activity).toEqual({
      id: expect.any(String),
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      status: 'ACTIVITY_STATUS_COMPLETED',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    const read = await postStamped(testApp, 'get-activity', client, {
      type: 'ACTIVITY_TYPE_GET',
      parameters: { activityId: activity.id },
    })
    expect(read.statusCode).toBe(200)
    expect(read.json().activity).toMatchObject({
      id: activity.id,
      status: 'ACTIVITY_STATUS_COMPLETED',
      result: { signature },
    })

    const other = await signInByEmail(testApp, 'other-org@example.com')
    const foreign = await postStamped(testApp, 'get-activity', other, {
      type: 'ACTIVITY_TYPE_GET',
      parameters: { activityId: activity.id },
    })
    expect(foreign.statusCode).toBe(404)
  })

  it('refuses to sign with an address that is not the wallet’s, or a hash that is not 32 bytes', async () => {
    const base = { encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' }
    const foreign = await postStamped(testApp, 'sign-payload', client, {
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      parameters: {
        ...base,
        signWith: '0x000000000000000000000000000000000000dEaD',
        payload: hashMessage('x'),
      },
    })
    expect(foreign.statusCode).toBe(422)
    expect(foreign.json().error.field).toBe('parameters.signWith')
    const short = await postStamped(testApp, 'sign-payload', client, {
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      parameters: { ...base, signWith: me.address, payload: '0xabcd' },
    })
    expect(short.statusCode).toBe(422)
    expect(short.json().error.field).toBe('parameters.payload')
  })

  it('rejects a stamp over a modified body, a 2-minute-old timestamp and a replay', async () => {
    const parameters = {
      signWith: me.address,
      payload: hashMessage('tamper'),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    }
    const body = buildStampedBody({
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      organizationId: client.orgId,
      parameters,
      timestampMs: testApp.clock.now(),
    })
    const signed = stampRequest('sign-payload', client.sessionPrivateKey, body)
    const modified = {
      stampedRequest: {
        ...signed.stampedRequest,
        body: body.replace(parameters.payload, hashMessage('other')),
      },
    }
    const tampered = await testApp.post('sign-payload', modified)
    expect(tampered.statusCode).toBe(401)
    expect(tampered.json().error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'The request signature does not match its body.',
      details: { reason: 'SIGNATURE_INVALID' },
    })

    const staleBody = buildStampedBody({
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      organizationId: client.orgId,
      parameters,
      timestampMs: testApp.clock.now() - 120_000,
    })
    const stale = await testApp.post(
      'sign-payload',
      stampRequest('sign-payload', client.sessionPrivateKey, staleBody),
    )
    expect(stale.statusCode).toBe(401)
    expect(stale.json().error.details.reason).toBe('TIMESTAMP_STALE')

    const first = await testApp.post('sign-payload', signed)
    expect(first.statusCode).toBe(200)
    const replay = await testApp.post('sign-payload', signed)
    expect(replay.statusCode).toBe(409)
    expect(replay.json().error.details.reason).toBe('REPLAYED')
  })

  it('refuses a body naming another organization, and a type meant for another route', async () => {
    const other = await signInByEmail(testApp, 'neighbour@example.com')
    const body = buildStampedBody({
      type: 'ACTIVITY_TYPE_WHOAMI',
      organizationId: other.orgId,
      parameters: {},
      timestampMs: testApp.clock.now(),
    })
    const crossed = await testApp.post('whoami', stampRequest('whoami', client.sessionPrivateKey, body))
    expect(crossed.statusCode).toBe(403)
    const wrongType = await postStamped(testApp, 'export-wallet', client, {
      type: 'ACTIVITY_TYPE_WHOAMI',
      parameters: { walletId: me.walletId, targetPublicKey: createFrameKey().targetPublicKey },
    })
    expect(wrongType.statusCode).toBe(422)
    expect(wrongType.json().error.field).toBe('type')
  })

  it('refuses an unknown key', async () => {
    const stranger = { ...client, sessionPrivateKey: createSessionKey().privateKey }
    const response = await postStamped(testApp, 'whoami', stranger, { type: 'ACTIVITY_TYPE_WHOAMI' })
    expect(response.statusCode).toBe(401)
    expect(response.json().error.details.reason).toBe('KEY_UNKNOWN')
  })

  it('exports the seed phrase in a bundle the export frame opens to the words of the user address', async () => {
    const { bundle, frame, activity } = await exportWith('export-wallet', 'ACTIVITY_TYPE_EXPORT_WALLET', {
      walletId: me.walletId,
    })
    expect(activity).toMatchObject({
      type: 'ACTIVITY_TYPE_EXPORT_WALLET',
      status: 'ACTIVITY_STATUS_COMPLETED',
    })
    const plaintext = await openExportBundle({
      bundle,
      embeddedPrivateKey: frame.privateKey,
      organizationId: client.orgId,
      pinnedSignerPublicKey: await getPinnedKey(),
    })
    const mnemonic = new TextDecoder().decode(plaintext)
    expect(mnemonic.split(' ')).toHaveLength(12)
    expect(mnemonicToAccount(mnemonic).address).toBe(me.address)

    // The stored wallet row, and every signer table, hold no plaintext secret.
    const hdKey = mnemonicToAccount(mnemonic).getHdKey()
    const privateKeyHex = bytesToHex(hdKey.privateKey ?? new Uint8Array())
    const seedHex = bytesToHex(mnemonicToSeedSync(mnemonic))
    const words = mnemonic.split(' ')
    const wordPairs = words.slice(1).map((word, index) => `${words[index]} ${word}`)
    const tables = [
      'signer_wallets',
      'signer_users',
      'signer_auth_methods',
      'signer_activities',
      'signer_otps',
      'signer_service_keys',
    ]
    for (const table of tables) {
      const rows = await testApp.database.db.execute<{ row: string }>(
        sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t`,
      )
      const dump = rows.rows
        .map((row) => row.row)
        .join('\n')
        .toLowerCase()
      if (table === 'signer_wallets') {
        expect(dump).toContain(me.address.toLowerCase())
        expect(dump).toMatch(/"sealed_mnemonic":"v1\./)
      }
      expect(dump).not.toContain(mnemonic)
      for (const pair of wordPairs) expect(dump).not.toContain(pair)
      expect(dump).not.toContain(privateKeyHex)
      expect(dump).not.toContain(seedHex)
      expect(dump).not.toContain(seedHex.slice(0, 32))
    }
  })

  it('exports the EVM private key of the user address through export-wallet-account', async () => {
    const { bundle, frame } = await exportWith(
      'export-wallet-account',
      'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT',
      {
        address: me.address,
      },
    )
    const privateKey = await openExportBundle({
      bundle,
      embeddedPrivateKey: frame.privateKey,
      organizationId: client.orgId,
      pinnedSignerPublicKey: await getPinnedKey(),
    })
    expect(privateKey).toHaveLength(32)
    expect(privateKeyToAddress(`0x${bytesToHex(privateKey)}`)).toBe(me.address)
  })

  it('refuses to export a wallet of another id', async () => {
    const response = await postStamped(testApp, 'export-wallet', client, {
      type: 'ACTIVITY_TYPE_EXPORT_WALLET',
      parameters: {
        walletId: '00000000-0000-4000-8000-000000000000',
        targetPublicKey: createFrameKey().targetPublicKey,
      },
    })
    expect(response.statusCode).toBe(404)
  })
})

describe('session keys', () => {
  let testApp: SignerTestApp
  beforeAll(async () => {
    testApp = await buildSignerTestApp()
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('an expired session key cannot sign, and nothing is recorded', async () => {
    const client = await signInByEmail(testApp, 'expiring@example.com')
    const me = (await postStamped(testApp, 'whoami', client, { type: 'ACTIVITY_TYPE_WHOAMI' })).json()
    testApp.clock.advance(900_000 + 1_000)
    const response = await postStamped(testApp, 'sign-payload', client, {
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      parameters: {
        signWith: me.address,
        payload: hashMessage('too late'),
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      },
    })
    expect(response.statusCode).toBe(401)
    expect(response.json().error).toEqual({
      code: 'UNAUTHORIZED',
      message: 'Your session has expired. Sign in again.',
      details: { reason: 'KEY_EXPIRED' },
    })
    const activities = await testApp.database.db.execute<{ count: number }>(
      sql`select count(*)::int as count from signer_activities`,
    )
    expect(activities.rows[0]?.count).toBe(0)
  })

  it('keeps at most 10 live session keys per user: the oldest is revoked', async () => {
    const client = await signInByEmail(testApp, 'many-devices@example.com')
    const me = (await postStamped(testApp, 'whoami', client, { type: 'ACTIVITY_TYPE_WHOAMI' })).json()
    const later: Uint8Array[] = []
    for (let index = 0; index < 10; index += 1) {
      const frame = createFrameKey()
      const { credentialBundle } = await mintCredentialBundle(testApp.database.db, {
        userId: me.userId,
        targetPublicKey: frame.targetPublicKey,
        expirationSeconds: 900,
        nowMs: testApp.clock.now(),
      })
      later.push(
        (await decryptCredentialBundle({ bundle: credentialBundle, embeddedPrivateKey: frame.privateKey }))
          .privateKey,
      )
    }
    const oldest = await postStamped(testApp, 'whoami', client, { type: 'ACTIVITY_TYPE_WHOAMI' })
    expect(oldest.statusCode).toBe(401)
    expect(oldest.json().error).toMatchObject({
      message: 'Your session has ended. Sign in again.',
      details: { reason: 'KEY_REVOKED' },
    })
    for (const privateKey of [later[0], later[9]]) {
      const response = await postStamped(
        testApp,
        'whoami',
        { ...client, sessionPrivateKey: privateKey ?? new Uint8Array() },
        {
          type: 'ACTIVITY_TYPE_WHOAMI',
        },
      )
      expect(response.statusCode).toBe(200)
    }
    const live = await testApp.database.db.execute<{ count: number }>(
      sql`select count(*)::int as count from signer_session_keys where user_id = ${me.userId} and revoked_at is null`,
    )
    expect(live.rows[0]?.count).toBe(10)
  })
})
