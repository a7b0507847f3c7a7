import { ed25519 } from '@noble/curves/ed25519.js'
import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { base58 } from '@scure/base'
import { mnemonicToSeedSync } from '@scure/bip39'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { decryptExportBundle, generateP256KeyPair } from '@turnkey/crypto'
import { TurnkeyClient, TurnkeyRequestError } from '@turnkey/http'
import { type Hex, hashMessage, recoverAddress } from 'viem'
import { mnemonicToAccount, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  postStamped,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'

type Whoami = { orgId: string; userId: string; address: Hex; solanaAddress: string; walletId: string }

/** A stock Turnkey client, set up exactly as an integrator would with a session key's hex pair. */
function createTurnkeyClient(
  baseUrl: string,
  client: { sessionPrivateKey: Uint8Array; sessionPublicKey: string },
) {
  const stamper = new ApiKeyStamper({
    apiPublicKey: client.sessionPublicKey,
    apiPrivateKey: bytesToHex(client.sessionPrivateKey),
  })
  return new TurnkeyClient({ baseUrl }, stamper)
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

describe('stock Turnkey clients (@turnkey/http + @turnkey/api-key-stamper)', () => {
  let testApp: SignerTestApp
  let client: SignedInClient
  let me: Whoami
  let baseUrl: string
  let turnkey: TurnkeyClient
  beforeAll(async () => {
    testApp = await buildSignerTestApp()
    const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' })
    baseUrl = `${address}/signer/v1`
    client = await signInByEmail(testApp, 'turnkey@example.com')
    me = (await postStamped(testApp, 'whoami', client, { type: 'ACTIVITY_TYPE_WHOAMI' })).json()
    turnkey = createTurnkeyClient(baseUrl, client)
  })
  afterAll(async () => {
    await testApp.close()
  })

  const timestampMs = () => String(testApp.clock.now())

  it('answers whoami, getWallets and getWalletAccounts with the signed-in user and wallet', async () => {
    const whoami = await turnkey.getWhoami({ organizationId: client.orgId })
    expect(whoami).toMatchObject({
      organizationId: me.orgId,
      userId: me.userId,
      username: 'turnkey@example.com',
    })

    const { wallets } = await turnkey.getWallets({ organizationId: client.orgId })
    expect(wallets.map((wallet) => wallet.walletId)).toEqual([me.walletId])
    expect(Number(wallets[0]?.createdAt.seconds)).toBeGreaterThan(0)

    const { accounts } = await turnkey.getWalletAccounts({
      organizationId: client.orgId,
      walletId: me.walletId,
    })
    expect(accounts.map((account) => [account.addressFormat, account.address, account.path])).toEqual([
      ['ADDRESS_FORMAT_ETHEREUM', me.address, "m/44'/60'/0'/0/0"],
      ['ADDRESS_FORMAT_SOLANA', me.solanaAddress, "m/44'/501'/0'/0'"],
    ])
    // The SDK's rule after a login: the wallet whose account address matches the user's.
    expect(accounts.find((account) => account.address === me.address)?.walletId).toBe(me.walletId)
    const other = await turnkey.getWalletAccounts({
      organizationId: client.orgId,
      walletId: '00000000-0000-4000-8000-000000000000',
    })
    expect(other.accounts).toEqual([])
  })

  it('signs a raw payload that viem recovers to the wallet address, and getActivity returns it', async () => {
    const hash = hashMessage('Pay 5 USDC to alice')
    const { activity } = await turnkey.signRawPayload({
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      timestampMs: timestampMs(),
      organizationId: client.orgId,
      parameters: {
        signWith: me.address,
        payload: hash,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      },
    })
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(activity.type).toBe('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2')
    const result = activity.result.signRawPayloadResult
    if (result === undefined) throw new Error('no signRawPayloadResult')
    expect(result.v).toMatch(/^0[01]$/)
    const recovered = await recoverAddress({
      hash,
      signature: { r: `0x${result.r}`, s: `0x${result.s}`, yParity: Number(result.v) },
    })
    expect(recovered).toBe(me.address)

    const polled = await turnkey.getActivity({ organizationId: client.orgId, activityId: activity.id })
    expect(polled.activity.id).toBe(activity.id)
    expect(polled.activity.result.signRawPayloadResult).toEqual(result)
    expect(polled.activity.intent.signRawPayloadIntentV2?.signWith).toBe(me.address)
  })

  it('signs a Solana message with the ed25519 account (r‖s verifies)', async () => {
    const message = new TextEncoder().encode('solana message')
    const { activity } = await turnkey.signRawPayload({
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      timestampMs: timestampMs(),
      organizationId: client.orgId,
      parameters: {
        signWith: me.solanaAddress,
        payload: bytesToHex(message),
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
      },
    })
    const result = activity.result.signRawPayloadResult
    if (result === undefined) throw new Error('no signRawPayloadResult')
    const signature = hexToBytes(result.r + result.s)
    expect(ed25519.verify(signature, message, base58.decode(me.solanaAddress))).toBe(true)
  })

  it('exports the wallet and an account in bundles @turnkey/crypto opens with the pinned key', async () => {
    const pinned = (await testApp.post('signer-config', {})).json().exportSignerPublicKey as string
    const target = generateP256KeyPair()
    const walletExport = await turnkey.exportWallet({
      type: 'ACTIVITY_TYPE_EXPORT_WALLET',
      timestampMs: timestampMs(),
      organizationId: client.orgId,
      parameters: { walletId: me.walletId, targetPublicKey: target.publicKeyUncompressed },
    })
    const walletResult = walletExport.activity.result.exportWalletResult
    expect(walletResult?.walletId).toBe(me.walletId)
    const mnemonic = await decryptExportBundle({
      exportBundle: walletResult?.exportBundle ?? '',
      embeddedKey: target.privateKey,
      organizationId: client.orgId,
      dangerouslyOverrideSignerPublicKey: pinned,
      returnMnemonic: true,
    })
    expect(mnemonicToAccount(mnemonic).address).toBe(me.address)
    expect(mnemonicToSeedSync(mnemonic).length).toBe(64)

    const accountTarget = generateP256KeyPair()
    const accountExport = await turnkey.exportWalletAccount({
      type: 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT',
      timestampMs: timestampMs(),
      organizationId: client.orgId,
      parameters: { address: me.address, targetPublicKey: accountTarget.publicKeyUncompressed },
    })
    const accountResult = accountExport.activity.result.exportWalletAccountResult
    expect(accountResult?.address).toBe(me.address)
    const privateKey = await decryptExportBundle({
      exportBundle: accountResult?.exportBundle ?? '',
      embeddedKey: accountTarget.privateKey,
      organizationId: client.orgId,
      dangerouslyOverrideSignerPublicKey: pinned,
      returnMnemonic: false,
    })
    expect(privateKeyToAddress(`0x${privateKey}`)).toBe(me.address)
  })

  it('refuses a stamp by a key that is no session key, and another organization', async () => {
    const stranger = p256.utils.randomSecretKey()
    const unknown = createTurnkeyClient(baseUrl, {
      sessionPrivateKey: stranger,
      sessionPublicKey: bytesToHex(p256.getPublicKey(stranger, true)),
    })
    expect(await refusalOf(unknown.getWhoami({ organizationId: client.orgId }))).toEqual({
      code: 'UNAUTHORIZED',
      reason: 'KEY_UNKNOWN',
    })
    expect(
      await refusalOf(
        unknown.signRawPayload({
          type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
          timestampMs: timestampMs(),
          organizationId: client.orgId,
          parameters: {
            signWith: me.address,
            payload: hashMessage('x'),
            encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
            hashFunction: 'HASH_FUNCTION_NO_OP',
          },
        }),
      ),
    ).toEqual({ code: 'UNAUTHORIZED', reason: 'KEY_UNKNOWN' })
    const other = await signInByEmail(testApp, 'someone-else@example.com')
    expect((await refusalOf(turnkey.getWallets({ organizationId: other.orgId }))).code).toBe('FORBIDDEN')
  })

  it('refuses a tampered body, a replayed activity and an activity without timestampMs', async () => {
    const signed = await turnkey.stampGetWhoami({ organizationId: client.orgId })
    const send = (body: string) =>
      fetch(signed.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue,
        },
        body,
      })
    expect((await send(signed.body)).status).toBe(200)
    const tampered = await send(JSON.stringify({ organizationId: client.orgId, extra: 1 }))
    expect(tampered.status).toBe(401)
    expect(await tampered.json()).toMatchObject({
      code: 'UNAUTHORIZED',
      details: [{ reason: 'SIGNATURE_INVALID' }],
    })

    const activity = await turnkey.stampSignRawPayload({
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      timestampMs: timestampMs(),
      organizationId: client.orgId,
      parameters: {
        signWith: me.address,
        payload: hashMessage('once'),
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      },
    })
    const submit = () =>
      fetch(activity.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Stamp': activity.stamp.stampHeaderValue },
        body: activity.body,
      })
    expect((await submit()).status).toBe(200)
    const replayed = await submit()
    expect(replayed.status).toBe(409)
    expect(await replayed.json()).toMatchObject({ details: [{ reason: 'REPLAYED' }] })

    const untimed = await refusalOf(
      turnkey.request('/public/v1/submit/export_wallet', {
        type: 'ACTIVITY_TYPE_EXPORT_WALLET',
        organizationId: client.orgId,
        parameters: { walletId: me.walletId, targetPublicKey: generateP256KeyPair().publicKeyUncompressed },
      }),
    )
    expect(untimed).toEqual({ code: 'BAD_REQUEST', reason: 'TIMESTAMP_MISSING' })
  })

  // Last: it moves the signer's clock past the session's end.
  it('refuses queries and activities by an expired session key', async () => {
    const shortLived = await signInByEmail(testApp, 'short@example.com', { expirationSeconds: 60 })
    const shortClient = createTurnkeyClient(baseUrl, shortLived)
    expect((await shortClient.getWhoami({ organizationId: shortLived.orgId })).organizationId).toBe(
      shortLived.orgId,
    )
    testApp.clock.advance(61_000)
    expect(await refusalOf(shortClient.getWhoami({ organizationId: shortLived.orgId }))).toEqual({
      code: 'UNAUTHORIZED',
      reason: 'KEY_EXPIRED',
    })
    expect(await refusalOf(shortClient.getWallets({ organizationId: shortLived.orgId }))).toEqual({
      code: 'UNAUTHORIZED',
      reason: 'KEY_EXPIRED',
    })
  })
})
