import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import type { DevMail } from '@quicklinks/core/dev-outbox'
import type { DeliveryLogger } from '@quicklinks/runtime/delivery/create-delivery'
import type { DevOutbox } from '@quicklinks/runtime/delivery/create-dev-outbox'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export type MailCatcher = {
  /** The port it listens on (the real one when asked for port 0). */
  port: number
  /** Stops accepting mail and closes open connections. */
  close(): Promise<void>
}

export type MailCatcherOptions = {
  host: string
  port: number
  outbox: DevOutbox<DevMail>
  logger: DeliveryLogger
  /** Largest accepted message in bytes (default 5 MB). */
  maxBytes?: number
}

/**
 * Starts the development SMTP server: it accepts any mail from anyone, without TLS or auth (so
 * it must only listen on loopback), parses it and stores it in `outbox`. Rejects when the port
 * cannot be bound (for example EADDRINUSE).
 */
export async function startMailCatcher(options: MailCatcherOptions): Promise<MailCatcher> {
  const { outbox, logger } = options
  const server = new SMTPServer({
    name: 'quicklinks-dev-mail-catcher',
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    disableReverseLookup: true,
    size: options.maxBytes ?? 5 * 1024 * 1024,
    closeTimeout: 1000,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if (stream.sizeExceeded) {
            callback(Object.assign(new Error('Message too large'), { responseCode: 552 }))
            return
          }
          const to = session.envelope.rcptTo.map((recipient) => recipient.address).join(', ')
          outbox.add({
            id: randomUUID(),
            to,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html === false ? null : parsed.html,
            date: new Date().toISOString(),
          })
          logger.debug({ to }, 'Dev mail caught')
          callback()
        })
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'Dev mail catcher could not parse a message')
          callback(error instanceof Error ? error : new Error(String(error)))
        })
    },
  })

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once('error', onError)
    server.listen(options.port, options.host, () => {
      server.off('error', onError)
      resolve()
    })
  })
  server.on('error', (error) => logger.warn({ err: error }, 'Dev mail catcher error'))
  const port = (server.server.address() as AddressInfo).port

  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
