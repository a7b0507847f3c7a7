import { z } from 'zod'

/**
 * What the dev outboxes hold (dev mode only): mail caught by the server's SMTP catcher
 * (GET /api/dev/mail) and text messages from its dev SMS provider (GET /api/dev/sms), each listed
 * newest first as `{ data: [...] }`. The server answers with these schemas; the web's dev pages
 * and the e2e fixtures read the same shapes.
 */
export const devMailSchema = z
  .object({
    id: z.string(),
    to: z.string().describe('Envelope recipients, comma-separated'),
    subject: z.string(),
    text: z.string(),
    html: z.string().nullable().describe('The HTML part; null for a text-only mail'),
    date: z.iso.datetime().describe('When the catcher received it'),
  })
  .meta({ id: 'DevMail' })

/** A mail as the dev catcher keeps it. */
export type DevMail = z.infer<typeof devMailSchema>

export const devSmsSchema = z
  .object({ id: z.string(), to: z.string(), body: z.string(), date: z.iso.datetime() })
  .meta({ id: 'DevSms' })

/** A text message as the dev SMS provider keeps it. */
export type DevSms = z.infer<typeof devSmsSchema>
