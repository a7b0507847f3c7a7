import { AppError } from '@quicklinks/core/app-error'
import type { DevSms } from '@quicklinks/core/dev-outbox'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../create-logger.ts'
import { createDelivery } from './create-delivery.ts'
import { createDevOutbox } from './create-dev-outbox.ts'

const mailFrom = 'Quick Links <no-reply@quicklinks.local>'

function createMemoryLogger() {
  const lines: string[] = []
  const logger = createLogger('debug', { write: (line: string) => void lines.push(line) })
  return { logger, lines }
}

async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  if (!(error instanceof AppError)) throw new Error(`Expected an AppError, got ${String(error)}`)
  return error
}

describe('createDelivery', () => {
  it("answers 503 'SMS sign-in is not configured on this server.' when SMS is off", async () => {
    const { logger } = createMemoryLogger()
    const delivery = createDelivery({ smtpUrl: undefined, mailFrom, sms: { provider: 'none' } }, logger)
    const error = await rejectionOf(delivery.sendSms({ to: '+14155550100', body: 'code 123456' }))
    expect(error.status).toBe(503)
    expect(error.toBody()).toEqual({
      error: { code: 'SERVICE_UNAVAILABLE', message: 'SMS sign-in is not configured on this server.' },
    })
  })

  it('answers 503 for mail when no SMTP server is configured', async () => {
    const { logger } = createMemoryLogger()
    const delivery = createDelivery({ smtpUrl: undefined, mailFrom, sms: { provider: 'none' } }, logger)
    const error = await rejectionOf(
      delivery.sendEmail({ to: 'a@example.com', subject: 's', text: 't', html: 'h' }),
    )
    expect(error.toBody().error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'E-mail sign-in is not configured on this server.',
    })
  })

  it('puts dev-mode SMS in the shared outbox, newest first, and logs no body', async () => {
    const { logger, lines } = createMemoryLogger()
    const smsOutbox = createDevOutbox<DevSms>()
    const delivery = createDelivery({ smtpUrl: undefined, mailFrom, sms: { provider: 'dev' } }, logger, {
      smsOutbox,
    })
    await delivery.sendSms({ to: '+14155550100', body: 'Your code is 111111' })
    await delivery.sendSms({ to: '+14155550101', body: 'Your code is 222222' })
    expect(smsOutbox.list()).toEqual([
      { id: expect.any(String), to: '+14155550101', body: 'Your code is 222222', date: expect.any(String) },
      { id: expect.any(String), to: '+14155550100', body: 'Your code is 111111', date: expect.any(String) },
    ])
    expect(lines.join('')).toContain('SMS sent')
    expect(lines.join('')).not.toMatch(/111111|222222/)
  })

  it('answers UPSTREAM_FAILED when the SMTP server cannot be reached, logging no content', async () => {
    const { logger, lines } = createMemoryLogger()
    const delivery = createDelivery(
      { smtpUrl: 'smtp://127.0.0.1:1', mailFrom, sms: { provider: 'none' } },
      logger,
    )
    const error = await rejectionOf(
      delivery.sendEmail({
        to: 'a@example.com',
        subject: 'Code 987654',
        text: '987654',
        html: '<b>987654</b>',
      }),
    )
    expect(error.code).toBe('UPSTREAM_FAILED')
    expect(error.userMessage).toBe('We could not send the e-mail. Try again shortly.')
    expect(lines.join('')).toContain('Mail delivery failed')
    expect(lines.join('')).not.toContain('987654')
  })
})
