import { createConnection } from 'node:net'
import type { DevMail } from '@quicklinks/core/dev-outbox'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDelivery } from '@quicklinks/runtime/delivery/create-delivery'
import { createDevOutbox } from '@quicklinks/runtime/delivery/create-dev-outbox'
import { afterEach, describe, expect, it } from 'vitest'
import { type MailCatcher, startMailCatcher } from './start-mail-catcher.ts'

const logger = createLogger('silent')
const mailFrom = 'Quick Links <no-reply@quicklinks.local>'

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

describe('startMailCatcher', () => {
  const catchers: MailCatcher[] = []
  afterEach(async () => {
    await Promise.all(catchers.splice(0).map((catcher) => catcher.close()))
  })

  it('catches a real nodemailer send with both parts, newest first', async () => {
    const outbox = createDevOutbox<DevMail>()
    const catcher = await startMailCatcher({ host: '127.0.0.1', port: 0, outbox, logger })
    catchers.push(catcher)
    const delivery = createDelivery(
      { smtpUrl: `smtp://127.0.0.1:${catcher.port}`, mailFrom, sms: { provider: 'none' } },
      logger,
    )
    await delivery.sendEmail({
      to: 'first@example.com',
      subject: 'First',
      text: 'Plain first',
      html: '<p>First</p>',
    })
    await delivery.sendEmail({
      to: 'ada@example.com',
      subject: 'Your Quick Links code: 123456',
      text: 'Your code is 123456.',
      html: '<p>Your code is <strong>123456</strong>.</p>',
    })

    const [newest, oldest] = outbox.list()
    expect(newest).toEqual({
      id: expect.any(String),
      to: 'ada@example.com',
      subject: 'Your Quick Links code: 123456',
      text: 'Your code is 123456.',
      html: expect.stringContaining('<p>Your code is <strong>123456</strong>.</p>'),
      date: expect.any(String),
    })
    expect(oldest?.subject).toBe('First')
    expect(Date.parse(newest?.date ?? '')).toBeGreaterThanOrEqual(Date.parse(oldest?.date ?? ''))
  })

  it('refuses a port that is taken, and frees its own port on close', async () => {
    const outbox = createDevOutbox<DevMail>()
    const catcher = await startMailCatcher({ host: '127.0.0.1', port: 0, outbox, logger })
    await expect(
      startMailCatcher({ host: '127.0.0.1', port: catcher.port, outbox, logger }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' })
    expect(await canConnect(catcher.port)).toBe(true)
    await catcher.close()
    expect(await canConnect(catcher.port)).toBe(false)
  })
})
