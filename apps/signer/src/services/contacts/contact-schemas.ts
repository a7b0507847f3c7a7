import { z } from 'zod'
import type { SignerContactChannel } from '../../db/signer-schema.ts'

/** An e-mail address or phone number, normalised: the key accounts, codes and limits use. */
export type Contact = { channel: SignerContactChannel; address: string }

/** An e-mail address, trimmed and lower-cased (so `A@X.io ` and `a@x.io` are one account). */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'must be an e-mail address' }).max(254, 'must be at most 254 characters'))

const e164Pattern = /^\+[1-9]\d{6,14}$/

/**
 * A phone number in E.164 (`+14155550123`); spaces, dots, dashes and brackets people type are
 * dropped first.
 */
export const phoneSchema = z
  .string()
  .transform((value) => value.replace(/[\s().-]/g, ''))
  .pipe(z.string().regex(e164Pattern, 'must be a phone number with its country code, such as +14155550123'))
