import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'

/**
 * The payee's e-mail notices (docs/api.md#notices): a mail on each verified payment, switched per
 * link (the link's `notify_payments`), and a daily digest, switched per user here.
 */

/** How often the user gets a digest of their verified payments: never, or once a day (UTC). */
export const paymentDigests = ['off', 'daily'] as const

export const paymentDigestSchema = describeSchema(
  z.enum(paymentDigests, { error: "must be 'off' or 'daily'" }),
  "'daily': one mail a day summing up the previous UTC day's verified payments, none for a day without any",
)

/** The digest setting. */
export type PaymentDigest = z.infer<typeof paymentDigestSchema>

/** The user's notice settings, as GET and PUT /api/users/notices answer them. */
export const noticeSettingsSchema = nameSchema(
  z.object({ paymentDigest: paymentDigestSchema }),
  'NoticeSettings',
)

/** The notice settings. */
export type NoticeSettings = z.infer<typeof noticeSettingsSchema>

/** PUT /api/users/notices's body. */
export const updateNoticeSettingsRequestSchema = nameSchema(
  z.object({ paymentDigest: paymentDigestSchema }),
  'UpdateNoticeSettingsRequest',
)

/** The answer of GET and PUT /api/users/notices. */
export const noticeSettingsResponseSchema = z.object({ data: noticeSettingsSchema })
