import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { DevMail } from '@quicklinks/core/dev-outbox'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDevOutbox } from '@quicklinks/runtime/delivery/create-dev-outbox'
import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { type MailCatcher, startMailCatcher } from '../../services/delivery/start-mail-catcher.ts'

const deployment = {
  chains: [
    {
      chainId: 8453,
      name: 'Base',
      rpcUrl: 'http://127.0.0.1:8645',
      bundlerUrl: 'http://127.0.0.1:8675',
      nativeSymbol: 'ETH',
      relayer: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
      tokens: [{ symbol: 'USDC', address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', decimals: 6 }],
      contracts: {
        weth: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
        uniswapV2Factory: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
        uniswapV2Router: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
        multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
        wethUsdcPair: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
        usdtUsdcPair: '0x5FC8d32690CC91D4C39D63d3c0Ad71d54B4B8b2a',
        payRouter: '0x0165878A594ca255338adfa4d48449f69242Eb8F',
        entryPointV07: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
        entryPointV08: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
        accountFactory: '0x01dbbE7d8Dc355459a3F25488FF460A86Cf37d85',
        multiOwnerAccountFactory: '0xDB310A8FF89425AEaCc84083A966b8485069c431',
        simple7702Account: '0xe6Cae83BdE06E4c305530e199D7217f42808555B',
        sponsorPaymaster: '0x2d16047575840FA28e4B119831EeD0526E3aAbaE',
      },
    },
  ],
}

describe('/api/dev routes', () => {
  let testApp: TestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('are a JSON 404 when DEV_MODE is off, even with the deployment file present', async () => {
    testApp = await buildTestApp({ devMode: false })
    const file = testApp.app.config.devnetDeploymentFile
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify(deployment))
    const response = await testApp.app.inject({ method: 'GET', url: '/api/dev/devnet' })
    expect(response.statusCode).toBe(404)
    expect(response.json().error.code).toBe('NOT_FOUND')
    for (const url of ['/api/dev/mail', '/api/dev/sms']) {
      const outbox = await testApp.app.inject({ method: 'GET', url })
      expect(outbox.statusCode).toBe(404)
      expect(outbox.json().error.code).toBe('NOT_FOUND')
    }
  })

  it('GET /api/dev/devnet serves the deployment file in dev mode', async () => {
    testApp = await buildTestApp({ devMode: true })
    const file = testApp.app.config.devnetDeploymentFile
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify(deployment))
    const response = await testApp.app.inject({ method: 'GET', url: '/api/dev/devnet' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(deployment)
  })

  it('GET /api/dev/devnet is 503 with a clear message until the devnet has written its file', async () => {
    testApp = await buildTestApp({ devMode: true })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/dev/devnet' })
    expect(response.statusCode).toBe(503)
    expect(response.json().error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringMatching(/devnet has not been deployed yet.*npm start/),
    })

    const file = testApp.app.config.devnetDeploymentFile
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, '{"chains": [')
    const partial = await testApp.app.inject({ method: 'GET', url: '/api/dev/devnet' })
    expect(partial.statusCode).toBe(503)
    expect(partial.json().error.message).toMatch(/not usable/)
  })

  describe('outboxes', () => {
    let catcher: MailCatcher | undefined
    afterEach(async () => {
      await catcher?.close()
      catcher = undefined
    })

    it('GET /api/dev/mail lists mail sent over SMTP to the catcher, newest first', async () => {
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
      expect((await testApp.app.inject({ method: 'GET', url: '/api/dev/mail' })).json()).toEqual({ data: [] })

      await testApp.app.delivery.sendEmail({
        to: 'old@example.com',
        subject: 'Older',
        text: 'older',
        html: '<p>older</p>',
      })
      await testApp.app.delivery.sendEmail({
        to: 'ada@example.com',
        subject: 'Your Quick Links code',
        text: 'Your code is 424242.',
        html: '<p>Your code is <b>424242</b>.</p>',
      })
      const response = await testApp.app.inject({ method: 'GET', url: '/api/dev/mail' })
      expect(response.statusCode).toBe(200)
      const { data } = response.json() as { data: Record<string, unknown>[] }
      expect(data.map((mail) => mail.to)).toEqual(['ada@example.com', 'old@example.com'])
      expect(data[0]).toEqual({
        id: expect.any(String),
        to: 'ada@example.com',
        subject: 'Your Quick Links code',
        text: 'Your code is 424242.',
        html: expect.stringContaining('<b>424242</b>'),
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      })
    })

    it('GET /api/dev/sms lists text messages sent through the dev provider, newest first', async () => {
      testApp = await buildTestApp({ devMode: true, sms: { provider: 'dev' } })
      await testApp.app.delivery.sendSms({ to: '+14155550100', body: 'Your code is 111111' })
      await testApp.app.delivery.sendSms({ to: '+14155550101', body: 'Your code is 222222' })
      const response = await testApp.app.inject({ method: 'GET', url: '/api/dev/sms' })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({
        data: [
          {
            id: expect.any(String),
            to: '+14155550101',
            body: 'Your code is 222222',
            date: expect.any(String),
          },
          {
            id: expect.any(String),
            to: '+14155550100',
            body: 'Your code is 111111',
            date: expect.any(String),
          },
        ],
      })
    })
  })
})
