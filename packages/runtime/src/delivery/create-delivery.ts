import { AppError } from '@quicklinks/core/app-error'
import type { DevSms } from '@quicklinks/core/dev-outbox'
import type { FastifyBaseLogger } from 'fastify'
import nodemailer, { type Transporter } from 'nodemailer'
import type { HostConfig } from '../env.ts'
import { createDevOutbox, type DevOutbox } from './create-dev-outbox.ts'
import { createDevSmsProvider } from './create-dev-sms-provider.ts'
import { createTwilioSmsProvider } from './create-twilio-sms-provider.ts'
import type { SmsMessage, SmsProvider } from './sms-provider.ts'

/** One e-mail: the caller renders both parts (the signer brands its own mails). */
export type EmailMessage = { to: string; subject: string; text: string; html: string }

/** How the server reaches people: e-mail over SMTP, text messages through an SMS provider. */
export type Delivery = {
  /**
   * Sends one e-mail from `config.mailFrom`. Rejects with AppError SERVICE_UNAVAILABLE when no
   * SMTP server is configured, UPSTREAM_FAILED when the SMTP server refuses or cannot be reached.
   */
  sendEmail(message: EmailMessage): Promise<void>
  /**
   * Sends one text message. Rejects with AppError SERVICE_UNAVAILABLE when SMS is not configured,
   * VALIDATION_FAILED (field `phone`) when the provider refuses the number, UPSTREAM_FAILED otherwise.
   */
  sendSms(message: SmsMessage): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's mail and SMS delivery (`buildApp` decorates it; see `AppDependencies.delivery`). */
    delivery: Delivery
  }
}

export type DeliveryLogger = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>

export type DeliveryDependencies = {
  /** Where dev-mode SMS land (shared with `GET /api/dev/sms`); a private one by default. */
  smsOutbox?: DevOutbox<DevSms>
  /** Replaces the provider chosen from `config.sms` (tests). */
  smsProvider?: SmsProvider
  /** Replaces the SMTP transport built from `config.smtpUrl` (tests). */
  mailTransport?: Pick<Transporter, 'sendMail'>
}

export const mailNotConfiguredMessage = 'E-mail sign-in is not configured on this server.'
export const smsNotConfiguredMessage = 'SMS sign-in is not configured on this server.'

/**
 * Builds the server's mail and SMS delivery from its config: nodemailer to `config.smtpUrl`
 * (in dev mode the built-in catcher), and the SMS provider named by `config.sms` (Twilio, the dev
 * outbox, or none). Nothing connects until the first send. Logs only delivery metadata: never a
 * message body, subject or code at info level.
 */
export function createDelivery(
  config: Pick<HostConfig, 'smtpUrl' | 'mailFrom' | 'sms'>,
  logger: DeliveryLogger,
  dependencies: DeliveryDependencies = {},
): Delivery {
  const transport =
    dependencies.mailTransport ??
    (config.smtpUrl === undefined
      ? undefined
      : nodemailer.createTransport({
          url: config.smtpUrl,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 20_000,
        }))
  const smsProvider = dependencies.smsProvider ?? createSmsProvider(config.sms, dependencies.smsOutbox)

  return {
    async sendEmail({ to, subject, text, html }) {
      if (transport === undefined) {
        throw new AppError('SERVICE_UNAVAILABLE', {
          message: 'No SMTP_URL configured',
          userMessage: mailNotConfiguredMessage,
        })
      }
      try {
        const info = await transport.sendMail({ from: config.mailFrom, to, subject, text, html })
        logger.info({ messageId: info.messageId }, 'Mail sent')
      } catch (error) {
        logger.error({ err: error }, 'Mail delivery failed')
        throw new AppError('UPSTREAM_FAILED', {
          message: 'The SMTP server refused or could not be reached',
          userMessage: 'We could not send the e-mail. Try again shortly.',
          cause: error,
        })
      }
    },

    async sendSms(message) {
      if (smsProvider === undefined) {
        throw new AppError('SERVICE_UNAVAILABLE', {
          message: 'No SMS provider configured',
          userMessage: smsNotConfiguredMessage,
        })
      }
      try {
        await smsProvider.send(message)
      } catch (error) {
        logger.warn({ err: error, provider: config.sms.provider }, 'SMS delivery failed')
        throw error
      }
      logger.info({ provider: config.sms.provider }, 'SMS sent')
    },
  }
}

function createSmsProvider(
  sms: HostConfig['sms'],
  outbox: DevOutbox<DevSms> | undefined,
): SmsProvider | undefined {
  switch (sms.provider) {
    case 'dev':
      return createDevSmsProvider(outbox ?? createDevOutbox())
    case 'twilio':
      return createTwilioSmsProvider(sms)
    case 'none':
      return undefined
    default: {
      const unknown: never = sms
      throw new Error(`Unknown SMS provider: ${JSON.stringify(unknown)}`)
    }
  }
}
