import type { APIRequestContext, Page } from '@playwright/test'
import { mnemonicToAccount } from 'viem/accounts'
import { createTestEmail, extractCode, waitForMail } from '../fixtures/dev-outbox.ts'
import { openExportWalletDialog } from '../fixtures/export-dialog.ts'
import {
  authDialog,
  getSessionUser,
  openAuthModal,
  requestEmailCode,
  signUpWithEmailCode,
} from '../fixtures/sign-in.ts'
import { expect, test } from '../fixtures/test.ts'

/**
 * The app page is not trusted with the seed (docs/decisions/0014): these tests run a script on the
 * app page the way an XSS or a compromised dependency would, with everything the page has (its
 * cookies, its origin, an auth frame of its own that shares the signed-in session key).
 */

type FrameAnswer = { type: string; message?: string; code?: string; stampHeaderValue?: string } & Record<
  string,
  unknown
>

type Attacker = { ask(message: Record<string, unknown>): Promise<FrameAnswer>; framesOrigin: string }

/**
 * As a script on the app page: reads the frame URL from signer-config, puts an auth frame of its
 * own on the page (same frames origin, same storage, so the signed-in session key), and
 * handshakes with it. Later `page.evaluate`s reach it as `window.attacker`.
 */
async function plantAttacker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const csrf = /csrf_token=([^;]+)/.exec(document.cookie)?.[1] ?? ''
    const config = (await (
      await fetch('/signer/v1/signer-config', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: '{}',
      })
    ).json()) as { authFrameUrl: string; framesOrigin: string }
    const iframe = document.createElement('iframe')
    iframe.style.display = 'none'
    const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }))
    iframe.src = config.authFrameUrl
    document.body.append(iframe)
    await loaded
    const channel = new MessageChannel()
    const waiting = new Map<string, (answer: unknown) => void>()
    channel.port1.onmessage = (event: MessageEvent<{ requestId: string }>) =>
      waiting.get(event.data.requestId)?.(event.data)
    const ask = (message: Record<string, unknown>, transfer: Transferable[] = []) =>
      new Promise((resolve) => {
        const requestId = crypto.randomUUID()
        waiting.set(requestId, resolve)
        if (transfer.length > 0)
          iframe.contentWindow?.postMessage({ ...message, requestId }, config.framesOrigin, transfer)
        else channel.port1.postMessage({ ...message, requestId })
      })
    await ask({ type: 'INIT_EMBEDDED_KEY' }, [channel.port2])
    ;(window as unknown as { attacker: Attacker }).attacker = {
      ask: (message) => ask(message) as Promise<FrameAnswer>,
      framesOrigin: config.framesOrigin,
    }
  })
}

/** Asks the planted auth frame to stamp `body` for the page (STAMP_REQUEST). */
function askToStamp(page: Page, body: string): Promise<FrameAnswer> {
  return page.evaluate(
    (stampBody) =>
      (window as unknown as { attacker: Attacker }).attacker.ask({ type: 'STAMP_REQUEST', body: stampBody }),
    body,
  )
}

/** The page's relay of a stamped call, through the page's own cookies (CSRF included). */
async function relay(page: Page, path: string, body: string, stampHeaderValue: string) {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrf_token')?.value ?? ''
  return page.request.post(`/signer/v1/${path}`, {
    headers: { 'x-csrf-token': csrf },
    data: {
      stampedRequest: {
        url: `${new URL(page.url()).origin}/signer/v1/${path}`,
        body,
        stamp: { stampHeaderName: 'X-Stamp', stampHeaderValue },
      },
    },
  })
}

/** A stamped-call body as the SDK writes it, dated now by the server's clock (its `Date`). */
async function buildBody(
  request: APIRequestContext,
  type: string,
  organizationId: string,
  parameters: Record<string, unknown>,
): Promise<string> {
  const date = (await request.get('/health')).headers().date
  const timestampMs = date === undefined ? Date.now() : Date.parse(date) + 500
  return JSON.stringify({ type, timestampMs: String(timestampMs), organizationId, parameters })
}

/** The signed-in user's organization, from the SDK's persisted session (what a script can read). */
async function readOrgId(page: Page): Promise<string> {
  return page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem('quicklinks:signer') ?? 'null') as {
      state?: { user?: { orgId?: string } }
    } | null
    return stored?.state?.user?.orgId ?? ''
  })
}

/** A verification token for `email`, as a script can get one for an address it reads. */
async function verifyEmail(page: Page, request: APIRequestContext, email: string): Promise<string> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrf_token')?.value ?? ''
  const headers = { 'x-csrf-token': csrf }
  const init = await page.request.post('/signer/v1/init-otp', {
    headers,
    data: { otpType: 'OTP_TYPE_EMAIL', contact: email },
  })
  expect(init.status(), await init.text()).toBe(200)
  const code = extractCode((await waitForMail(request, email)).text)
  const verify = await page.request.post('/signer/v1/verify-otp', {
    headers,
    data: { otpId: (await init.json()).otpId, otpCode: code },
  })
  expect(verify.status(), await verify.text()).toBe(200)
  return (await verify.json()).verificationToken
}

test.describe('the seed and the sign-in stay out of the app page’s reach', () => {
  test('the auth frame refuses the page an export to its own key and a contact change; the words still show only in the export frame', async ({
    page,
    request,
    consoleErrors,
  }) => {
    await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
    const email = await signUpWithEmailCode(page, request)
    const { address } = await getSessionUser(page)
    await page.goto('/settings')
    await plantAttacker(page)

    // The planted frame holds the live session: a whoami it stamps is accepted by the signer.
    const orgId = await readOrgId(page)
    const body = await buildBody(request, 'ACTIVITY_TYPE_WHOAMI', orgId, {})
    const stamped = await askToStamp(page, body)
    expect(stamped.type).toBe('STAMP')
    const me = await relay(page, 'whoami', body, stamped.stampHeaderValue ?? '')
    expect(me.status()).toBe(200)
    const { walletId } = (await me.json()) as { walletId: string }

    // An export to a key the script holds, in every form: refused, nothing to relay.
    const attackerKey = `04${'5a'.repeat(64)}`
    const exports = [
      await buildBody(request, 'ACTIVITY_TYPE_EXPORT_WALLET', orgId, {
        walletId,
        targetPublicKey: attackerKey,
      }),
      await buildBody(request, 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', orgId, {
        address,
        targetPublicKey: attackerKey,
      }),
    ]
    for (const exportBody of [...exports, `\uFEFF${exports[0]}`]) {
      const answer = await askToStamp(page, exportBody)
      expect(answer.type, exportBody).toBe('ERROR')
      expect(answer.stampHeaderValue).toBeUndefined()
    }
    expect(await askToStamp(page, exports[0] ?? '')).toMatchObject({
      code: 'FORBIDDEN',
      reason: 'NOT_FOR_THE_PAGE',
    })

    // A contact change to an address the script controls (it can read that inbox): the raw body
    // is refused…
    const thiefEmail = createTestEmail()
    const verificationToken = await verifyEmail(page, request, thiefEmail)
    const contactBody = await buildBody(request, 'ACTIVITY_TYPE_UPDATE_EMAIL_AUTH', orgId, {
      email: thiefEmail,
      verificationToken,
    })
    expect(await askToStamp(page, contactBody)).toMatchObject({ type: 'ERROR', code: 'FORBIDDEN' })
    // …and the one the frame builds itself still needs a code from the account's own address.
    const built = await page.evaluate(
      ([contact, token]) =>
        (window as unknown as { attacker: Attacker }).attacker.ask({
          type: 'STAMP_CONTACT_CHANGE',
          change: { channel: 'email', contact, verificationToken: token },
          timestampMs: Date.now(),
        }),
      [thiefEmail, verificationToken] as const,
    )
    expect(built.type).toBe('STAMPED_REQUEST')
    const change = await relay(
      page,
      String(built.path),
      String(built.body),
      String((built.stamp as { stampHeaderValue: string }).stampHeaderValue),
    )
    expect(change.status()).toBe(403)
    expect((await change.json()).error.message).toBe(
      'Confirm your current e-mail address first: enter the code sent to it.',
    )
    expect((await getSessionUser(page)).email).toBe(email)

    // The frames' own channel is out of the page's reach: a request posted on a channel of the
    // same name from the app origin reaches no frame, and the page hears nothing on it. The listener
    // stays open through the export below, whose frames talk on that channel (the export frame's
    // request, the auth frame's stamp) before the words can show: had the page shared the frames'
    // channel, it would have heard that traffic and the answer to its own request by then.
    await page.evaluate((exportBody) => {
      const channel = new BroadcastChannel('quicklinks-signer-frames')
      const heard: unknown[] = []
      channel.onmessage = (event) => heard.push(event.data)
      channel.postMessage({ type: 'STAMP_EXPORT_BODY', requestId: 'page', body: exportBody })
      ;(window as unknown as { channelProbe: { channel: BroadcastChannel; heard: unknown[] } }).channelProbe =
        { channel, heard }
    }, exports[0] ?? '')

    // The export itself still works, with the words inside the export frame only.
    const dialog = await openExportWalletDialog(page)
    await dialog.getByRole('button', { name: 'Show seed phrase' }).click()
    const list = page
      .frameLocator('iframe[title="Wallet export"]')
      .getByRole('list', { name: 'Recovery phrase words' })
    await expect(list).toBeVisible({ timeout: 20_000 })
    const heardOnChannel = await page.evaluate(() => {
      const probe = (window as unknown as { channelProbe: { channel: BroadcastChannel; heard: unknown[] } })
        .channelProbe
      probe.channel.close()
      return probe.heard
    })
    expect(heardOnChannel).toEqual([])
    const words = (await list.locator('.word-text').allTextContents()).map((word) => word.trim())
    expect(mnemonicToAccount(words.join(' ')).address.toLowerCase()).toBe(address.toLowerCase())
    const content = await page.content()
    expect(content).not.toContain(words.join(' '))
    for (let index = 1; index < words.length; index += 1) {
      expect(content).not.toMatch(
        new RegExp(`(^|[^a-z])${words[index - 1]}[^a-z0-9]+${words[index]}([^a-z]|$)`, 'i'),
      )
    }
    await dialog.getByRole('button', { name: 'Done' }).click()
    expect(consoleErrors).toEqual([])
  })

  test('the auth frame stamps no change of a way in for the page: passkeys, providers, TOTP factors, multi-owner membership', async ({
    page,
    request,
  }) => {
    await signUpWithEmailCode(page, request)
    await page.goto('/settings')
    await plantAttacker(page)
    const orgId = await readOrgId(page)
    // The planted frame holds the live session: what the page may ask for still works.
    const whoamiBody = await buildBody(request, 'ACTIVITY_TYPE_WHOAMI', orgId, {})
    const me = await relay(
      page,
      'whoami',
      whoamiBody,
      (await askToStamp(page, whoamiBody)).stampHeaderValue ?? '',
    )
    expect(me.status()).toBe(200)

    // What a script on the page would ask for to make the account its own, each one refused:
    // nothing to relay, so the signer never sees it.
    const attacks: [string, Record<string, unknown>][] = [
      [
        'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
        { challenge: 'c', attestation: { credentialId: 'x', clientDataJson: 'y', attestationObject: 'z' } },
      ],
      ['ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS', { providerName: 'dev', oidcToken: 'a.b.c' }],
      ['ACTIVITY_TYPE_ADD_MFA', { multiFactorType: 'totp' }],
      ['ACTIVITY_TYPE_DELETE_MFAS', { multiFactorIds: ['00000000-0000-0000-0000-000000000000'] }],
      ['ACTIVITY_TYPE_DELETE_AUTHENTICATORS', { authenticatorId: 'x' }],
      ['ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS', { issuer: 'https://issuer.example', subject: 'me' }],
      ['ACTIVITY_TYPE_CREATE_MULTI_OWNER', { members: [], rootQuorumThreshold: 1 }],
      ['ACTIVITY_TYPE_PREPARE_ADD_MULTI_OWNER_MEMBERS', { members: [] }],
      ['ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', { rootQuorumThreshold: 1 }],
    ]
    for (const [type, parameters] of attacks) {
      const answer = await askToStamp(page, await buildBody(request, type, orgId, parameters))
      expect(answer, type).toMatchObject({ type: 'ERROR', code: 'FORBIDDEN', reason: 'NOT_FOR_THE_PAGE' })
      expect(answer.stampHeaderValue, type).toBeUndefined()
    }

    // The frame builds such a change only as STAMP_ACCESS_CHANGE, and the signer refuses it without
    // a step-up: a proof the script makes up is worth nothing.
    const built = await page.evaluate(() =>
      (window as unknown as { attacker: Attacker }).attacker.ask({
        type: 'STAMP_ACCESS_CHANGE',
        call: 'requestMultiFactor',
        parameters: { multiFactorType: 'totp' },
        stepUp: {},
        timestampMs: Date.now(),
      }),
    )
    expect(built.type).toBe('STAMPED_REQUEST')
    const refused = await relay(
      page,
      String(built.path),
      String(built.body),
      String((built.stamp as { stampHeaderValue: string }).stampHeaderValue),
    )
    expect(refused.status()).toBe(403)
    expect((await refused.json()).error.details.reason).toBe('STEP_UP_REQUIRED')
  })

  test('logout ends the session key at the signer: a stamp made before it is refused after', async ({
    page,
    request,
  }) => {
    const email = await signUpWithEmailCode(page, request)
    await plantAttacker(page)
    const orgId = await readOrgId(page)
    const body = await buildBody(request, 'ACTIVITY_TYPE_WHOAMI', orgId, {})
    const copied = await askToStamp(page, body)
    expect(copied.type).toBe('STAMP')

    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible()

    const late = await relay(page, 'whoami', body, copied.stampHeaderValue ?? '')
    expect(late.status()).toBe(401)
    expect((await late.json()).error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Your session has ended. Sign in again.',
    })

    // Signing back in still works, with a new session key.
    await openAuthModal(page)
    await requestEmailCode(page, email)
    const code = extractCode((await waitForMail(request, email, 2)).text)
    await authDialog(page).getByLabel('Code').fill(code)
    await expect(page).not.toHaveURL(/\/$/, { timeout: 20_000 })
    expect((await getSessionUser(page)).email).toBe(email)
  })
})
