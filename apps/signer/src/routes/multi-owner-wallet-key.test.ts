// The wallet key of a multi-owner organization whose quorum is above 1 is one of the account's k
// owners: one session (one member) must not sign with it alone or take it away, by any route.
import { bytesToHex } from '@noble/hashes/utils.js'
import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient, TurnkeyRequestError } from '@turnkey/http'
import { type Hex, hashMessage, recoverAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  createFrameKey,
  postStamped,
  proveContact,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'

type Whoami = { orgId: string; address: Hex; solanaAddress: string; walletId: string }

const hash = hashMessage('Send 1 ETH to mallory')
const quorumRequired = 'MULTI_OWNER_QUORUM_REQUIRED'

describe('the wallet key of a multi-owner quorum of 2 (MULTI_OWNER_ENABLED on)', () => {
  let testApp: SignerTestApp
  let alice: SignedInClient
  let me: Whoami
  let turnkey: TurnkeyClient
  const member = privateKeyToAccount(generatePrivateKey())

  beforeAll(async () => {
    testApp = await buildSignerTestApp({ multiOwnerEnabled: true })
    const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' })
    alice = await signInByEmail(testApp, 'alice-quorum-key@example.com')
    me = (await postStamped(testApp, 'whoami', alice, { type: 'ACTIVITY_TYPE_WHOAMI' })).json()
    turnkey = new TurnkeyClient(
      { baseUrl: `${address}/signer/v1` },
      new ApiKeyStamper({
        apiPublicKey: alice.sessionPublicKey,
        apiPrivateKey: bytesToHex(alice.sessionPrivateKey),
      }),
    )
    // Before the quorum: the session signs with its key, as any wallet.
    expect((await signPayload({ signWith: me.address, payload: hash })).statusCode).toBe(200)
    const created = await postStamped(testApp, signerActivities.multiOwnerCreate.path, alice, {
      type: signerActivities.multiOwnerCreate.type,
      // Changing who may sign takes a step-up (docs/signer.md#step-up).
      parameters: {
        members: [{ evmSignerAddress: member.address }],
        rootQuorumThreshold: 2,
        stepUp: { verificationToken: await proveContact(testApp, { email: 'alice-quorum-key@example.com' }) },
      },
    })
    expect(created.statusCode, created.body).toBe(200)
  })
  afterAll(async () => {
    await testApp?.close()
  })

  function signPayload(parameters: Record<string, unknown>) {
    return postStamped(testApp, 'sign-payload', alice, {
      type: signerActivities.signRawPayload.type,
      parameters: {
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
        ...parameters,
      },
    })
  }

  /** The EVM key named every way the signer accepts it, with the hash with and without 0x. */
  const evmShapes = () => [
    { signWith: me.address, payload: hash },
    { signWith: me.address.toLowerCase(), payload: hash },
    { signWith: `0x${me.address.slice(2).toUpperCase()}`, payload: hash.slice(2) },
    { signWith: me.address, payload: hash.toUpperCase().replace('0X', '0x') },
  ]

  async function turnkeyRefusal(promise: Promise<unknown>): Promise<{ code: unknown; reason: unknown }> {
    try {
      await promise
    } catch (error) {
      if (!(error instanceof TurnkeyRequestError)) throw error
      const details = (error.details ?? []) as { reason?: string }[]
      return { code: error.code, reason: details[0]?.reason }
    }
    throw new Error('expected a refusal')
  }

  it('refuses sign-payload with the EVM key, in every request shape', async () => {
    for (const parameters of evmShapes()) {
      const response = await signPayload(parameters)
      expect(response.statusCode, JSON.stringify(parameters)).toBe(403)
      expect(response.json().error.details.reason).toBe(quorumRequired)
    }
  })

  it("refuses Turnkey's sign_raw_payload with the EVM key, in every request shape", async () => {
    for (const parameters of evmShapes()) {
      const refusal = await turnkeyRefusal(
        turnkey.signRawPayload({
          type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
          timestampMs: String(testApp.clock.now()),
          organizationId: alice.orgId,
          parameters: {
            ...parameters,
            encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
            hashFunction: 'HASH_FUNCTION_NO_OP',
          },
        }),
      )
      expect(refusal).toEqual({ code: 'FORBIDDEN', reason: quorumRequired })
    }
  })

  it('refuses both exports of the mnemonic and of the EVM key, on both routes', async () => {
    const ours = [
      ['export-wallet', signerActivities.exportWallet.type, { walletId: me.walletId }],
      ['export-wallet-account', signerActivities.exportWalletAccount.type, { address: me.address }],
      [
        'export-wallet-account',
        signerActivities.exportWalletAccount.type,
        { address: me.address.toLowerCase() },
      ],
    ] as const
    for (const [path, type, parameters] of ours) {
      const response = await postStamped(testApp, path, alice, {
        type,
        parameters: { ...parameters, targetPublicKey: createFrameKey().targetPublicKey },
      })
      expect(response.statusCode, path).toBe(403)
      expect(response.json().error.details.reason).toBe(quorumRequired)
    }

    const timestampMs = () => String(testApp.clock.now())
    expect(
      await turnkeyRefusal(
        turnkey.exportWallet({
          type: 'ACTIVITY_TYPE_EXPORT_WALLET',
          timestampMs: timestampMs(),
          organizationId: alice.orgId,
          parameters: { walletId: me.walletId, targetPublicKey: createFrameKey().targetPublicKey },
        }),
      ),
    ).toEqual({ code: 'FORBIDDEN', reason: quorumRequired })
    expect(
      await turnkeyRefusal(
        turnkey.exportWalletAccount({
          type: 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT',
          timestampMs: timestampMs(),
          organizationId: alice.orgId,
          parameters: { address: me.address, targetPublicKey: createFrameKey().targetPublicKey },
        }),
      ),
    ).toEqual({ code: 'FORBIDDEN', reason: quorumRequired })
  })

  it('still signs with the Solana key (no member) and signs with the EVM key once the quorum approves', async () => {
    const solana = await signPayload({
      signWith: me.solanaAddress,
      payload: bytesToHex(new TextEncoder().encode('solana')),
      hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
    })
    expect(solana.statusCode).toBe(200)

    const asked = await postStamped(testApp, signerActivities.multiOwnerSignRawPayload.path, alice, {
      type: signerActivities.multiOwnerSignRawPayload.type,
      parameters: {
        signWith: me.address,
        payload: hash,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      },
    })
    const { activity } = asked.json()
    expect(activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const approved = await testApp.post(signerActivities.multiOwnerSignRawPayload.path, {
      approval: {
        activityId: activity.id,
        evmSignerAddress: member.address,
        signature: await member.signMessage({ message: activity.result.consensus.approvalMessage }),
        payloadSignature: await member.sign({ hash }),
      },
    })
    expect(approved.statusCode, approved.body).toBe(200)
    const signatures = approved.json().activity.result.signatures as {
      evmSignerAddress: Hex
      signature: Hex
    }[]
    expect(signatures.map((entry) => entry.evmSignerAddress).sort()).toEqual(
      [me.address, member.address].sort(),
    )
    for (const entry of signatures) {
      expect(await recoverAddress({ hash, signature: entry.signature })).toBe(entry.evmSignerAddress)
    }
  })

  it('signs alone again once the quorum lowered the threshold to 1', async () => {
    const asked = await postStamped(testApp, signerActivities.multiOwnerUpdateRootQuorum.path, alice, {
      type: signerActivities.multiOwnerUpdateRootQuorum.type,
      parameters: {
        rootQuorumThreshold: 1,
        stepUp: { verificationToken: await proveContact(testApp, { email: 'alice-quorum-key@example.com' }) },
      },
    })
    const { activity } = asked.json()
    const lowered = await testApp.post(signerActivities.multiOwnerUpdateRootQuorum.path, {
      approval: {
        activityId: activity.id,
        evmSignerAddress: member.address,
        signature: await member.signMessage({ message: activity.result.consensus.approvalMessage }),
      },
    })
    expect(lowered.json().activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect((await signPayload({ signWith: me.address, payload: hash })).statusCode).toBe(200)
  })
})
