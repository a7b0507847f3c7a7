// A stranger asks the signer to mail someone a genuine sign-in link carrying parameters of the
// stranger's choosing (issue 29). `redirectParams` is an allowlist (docs/signer.md#signup-auth):
// only `next`, a path on this site; anything else is refused and never reaches the mail.
import type { DevMail } from '@quicklinks/core/dev-outbox'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDevOutbox } from '@quicklinks/runtime/delivery/create-dev-outbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFrameKey } from '../../signer/test/build-signer-test-app.ts'
import { type MailCatcher, startMailCatcher } from '../src/services/delivery/start-mail-catcher.ts'
import { buildTestApp, type TestApp } from './build-test-app.ts'
import { waitUntil } from './wait-until.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const email = 'victim@example.com'
const { targetPublicKey } = createFrameKey()

describe('redirectParams of a magic-link mail', () => {
  let catcher: MailCatcher
  let testApp: TestApp
  beforeAll(async () => {
    const mailOutbox = createDevOutbox<DevMail>()
    catcher = await startMailCatcher({
      host: '127.0.0.1',
      port: 0,
      outbox: mailOutbox,
      logger: createLogger('silent'),
    })
    testApp = await buildTestApp(
      { devMode: true, smtpUrl: `smtp://127.0.0.1:${catcher.port}` },
      { mailOutbox },
    )
  })
  afterAll(async () => {
    await testApp.close()
    await catcher.close()
  })

  const askForLink = (redirectParams: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/signer/v1/auth',
      cookies: { csrf_token: csrf },
      headers: { 'x-csrf-token': csrf },
      payload: { email, emailMode: 'magicLink', targetPublicKey, redirectParams },
    })
  const readMail = async () =>
    (await testApp.app.inject({ method: 'GET', url: '/api/dev/mail' })).json<{ data: DevMail[] }>().data

  it('refuses unknown or repeated names and a next that leaves the site, and mails nothing for them', async () => {
    const refused = [
      'next=%2Fdashboard&redirect_uri=https%3A%2F%2Fphish.example%2Fsteal',
      'utm_source=phish.example',
      'orgId=attacker-org',
      'next=%2Fdashboard&next=%2Fsettings',
      'next=https%3A%2F%2Fphish.example',
      'next=%2F%2Fphish.example',
      'next=%2F%5Cphish.example',
      `next=%2F${'a'.repeat(600)}`,
    ]
    for (const redirectParams of refused) {
      const response = await askForLink(redirectParams)
      expect([redirectParams, response.statusCode]).toEqual([redirectParams, 422])
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'redirectParams' })
    }

    // A genuine request afterwards: its mail is the only one, and it carries only our parameters.
    const genuine = await askForLink('next=%2Fdashboard%3Ftab%3Dlinks')
    expect(genuine.statusCode).toBe(200)
    await waitUntil(async () => (await readMail()).length > 0, 10_000, 'the sign-in mail')
    const mails = await readMail()
    expect(mails).toHaveLength(1)
    const [mail] = mails
    expect(mail?.to).toBe(email)
    expect(`${mail?.text} ${mail?.html}`).not.toMatch(/phish|redirect_uri|utm_source|attacker-org|settings/)
    const link = new URL(/https?:\/\/\S+\/login\?[^\s"<]+/.exec(mail?.text ?? '')?.[0] ?? 'http://invalid/')
    expect([...link.searchParams.keys()].sort()).toEqual(['bundle', 'isSignup', 'next', 'orgId'])
    expect(link.searchParams.get('next')).toBe('/dashboard?tab=links')
  })
})
