import * as z from 'zod/mini'

/**
 * What the dev outboxes hold (dev mode only): mail caught by the server's SMTP catcher
 * (GET /api/dev/mail) and text messages from its dev SMS provider (GET /api/dev/sms), each listed
 * newest first as `{ data: [...] }`. The server answers with these schemas; the web's dev pages
 * and the e2e fixtures read the same shapes.
 */
export const devMailSchema = z
  .object({
    id: z.string(),
    to: z.string().register(z.globalRegistry, { description: 'Envelope recipients, comma-separated' }),
    subject: z.string(),
    text: z.string(),
    html: z
      .nullable(z.string())
      .register(z.globalRegistry, { description: 'The HTML part; null for a text-only mail' }),
    date: z.iso.datetime().register(z.globalRegistry, { description: 'When the catcher received it' }),
  })
  .register(z.globalRegistry, { id: 'DevMail' })

/** A mail as the dev catcher keeps it. */
export type DevMail = z.infer<typeof devMailSchema>

export const devSmsSchema = z
  .object({ id: z.string(), to: z.string(), body: z.string(), date: z.iso.datetime() })
  .register(z.globalRegistry, { id: 'DevSms' })

/** A text message as the dev SMS provider keeps it. */
export type DevSms = z.infer<typeof devSmsSchema>
