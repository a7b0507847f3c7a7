import { randomUUID } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import { and, count, eq, gt, min, type SQL } from 'drizzle-orm'
import { generateOtp } from '../../crypto/otp/generate-otp.ts'
import { hashOtp } from '../../crypto/otp/hash-otp.ts'
import { createMagicLinkToken } from '../../crypto/otp/magic-link-token.ts'
import { lockForTransaction } from '../../db/lock-for-transaction.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { type SignerOtpPurpose, signerOtps } from '../../db/signer-schema.ts'
import type { CodeSendCaps } from '../../signer-config.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { describeWait } from './describe-wait.ts'
import { getPhonePrefix } from './get-phone-prefix.ts'
import { createContactLockedError, findContactLock } from './record-code-failure.ts'

/** A code works for 10 minutes. */
export const otpLifetimeMs = 10 * 60_000
/** At most 3 codes per contact per 3 minutes… */
export const maxOtpSendsPerWindow = 3
export const otpSendWindowMs = 3 * 60_000
export const otpSendLimitMessage = 'Too many codes were sent to this address. Wait 3 minutes, then try again.'
/** …and the daily caps of `CodeSendCaps` over any 24 hours. */
export const otpDailyWindowMs = 24 * 60 * 60_000
/**
 * What all strangers together may send to one contact in 24 hours, in units of the per-requester
 * cap: one requester cannot spend it, and the owner's browser never competes for it.
 */
export const strangerSendsPerContactFactor = 3

/**
 * Who asks for a code (docs/decisions/0022): a stranger is counted per client (`ip:{address or
 * /64}`); a browser holding a recent sign-in marker of the contact's account is the owner
 * (`user:{userId}`, `isReserved`), with a budget of its own that strangers cannot spend, and codes
 * that a lock does not stop.
 */
export type OtpRequester = { key: string; isReserved: boolean }

export type CreateOtpInput = {
  purpose: SignerOtpPurpose
  contact: Contact
  organizationId?: string
  targetPublicKey?: string
  expirationSeconds?: number
  /** Also make a magic-link secret for this row (returned as `magicLinkToken`). */
  withMagicLink?: boolean
  requester: OtpRequester
  caps: CodeSendCaps
  otpHashSecret: Uint8Array
  nowMs: number
}

export type CreatedOtp = {
  otpId: string
  code: string
  createdAt: Date
  expiresAt: Date
  /** With `withMagicLink`: the token the link carries (`{otpId}.{secret}`). */
  magicLinkToken?: string
  /** Who asked for it: a newer code retires only this requester's older ones. */
  requester: OtpRequester
}

/**
 * Makes a 6-digit code for a contact and stores only its keyed hash (bound to the new row's id),
 * with a 10-minute expiry; with `withMagicLink` also a link secret, likewise hashed. Every row
 * counts as one send of its requester (docs/decisions/0022). A stranger's send is refused while the
 * contact is locked (too many wrong codes), past 3 of that requester to the contact within 3
 * minutes, past `caps.perContactPerDay` of that requester to the contact within 24 hours (both
 * purposes together), past {@link strangerSendsPerContactFactor} times that for all strangers to
 * the contact, and, for a phone, past `caps.perPhonePrefixPerDay` to its number range within 24
 * hours. A reserved send (the owner's browser) has the same 3-minute and daily limits counted over
 * its own sends only, and no lock, stranger total or range cap stops it. The counts and the
 * insert run under a per-contact lock (and a per-range lock for a phone), so concurrent requests
 * cannot slip past them.
 *
 * Fails by rejecting with AppError RATE_LIMITED (429, a message saying what was exceeded and when
 * to try again, `details.retryAfterSeconds`), or on a database error. Returns the code and token
 * in clear for the caller to deliver; they are never stored.
 */
export async function createOtp(db: SignerDatabase, input: CreateOtpInput): Promise<CreatedOtp> {
  const { contact, nowMs, requester } = input
  const phonePrefix = contact.channel === 'sms' ? getPhonePrefix(contact.address) : null
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, `signer-otp-send:${contact.channel}:${contact.address}`)
    if (phonePrefix !== null) await lockForTransaction(tx, `signer-otp-send-prefix:${phonePrefix}`)
    if (!requester.isReserved) {
      const lockedUntil = await findContactLock(tx, contact, nowMs)
      if (lockedUntil !== undefined) throw createContactLockedError(lockedUntil, nowMs)
    }
    const ofContact = and(eq(signerOtps.channel, contact.channel), eq(signerOtps.contact, contact.address))
    const ofRequester = and(ofContact, eq(signerOtps.requester, requester.key))
    const recent = await countSendsSince(tx, ofRequester, nowMs - otpSendWindowMs)
    if (recent.sends >= maxOtpSendsPerWindow) {
      throw createSendCapError(
        otpSendLimitMessage,
        recent.oldestMs + otpSendWindowMs - nowMs,
        'per-contact window',
      )
    }
    const today = await countSendsSince(tx, ofRequester, nowMs - otpDailyWindowMs)
    const strangers = requester.isReserved
      ? { sends: 0, oldestMs: nowMs }
      : await countSendsSince(tx, and(ofContact, eq(signerOtps.isReserved, false)), nowMs - otpDailyWindowMs)
    const isStrangerCapReached =
      strangers.sends >= input.caps.perContactPerDay * strangerSendsPerContactFactor
    if (today.sends >= input.caps.perContactPerDay || isStrangerCapReached) {
      const retryAfterMs = (isStrangerCapReached ? strangers : today).oldestMs + otpDailyWindowMs - nowMs
      throw createSendCapError(
        `Too many codes were sent to this address today. Try again in ${describeWait(retryAfterMs / 1000)}.`,
        retryAfterMs,
        isStrangerCapReached ? 'per-contact daily cap of strangers' : 'per-contact daily cap',
      )
    }
    if (phonePrefix !== null && !requester.isReserved) {
      const range = await countSendsSince(
        tx,
        eq(signerOtps.phonePrefix, phonePrefix),
        nowMs - otpDailyWindowMs,
      )
      if (range.sends >= input.caps.perPhonePrefixPerDay) {
        const retryAfterMs = range.oldestMs + otpDailyWindowMs - nowMs
        throw createSendCapError(
          `Too many codes were sent to phone numbers like this one today. Try again in ${describeWait(retryAfterMs / 1000)}.`,
          retryAfterMs,
          `daily cap of ${phonePrefix}`,
        )
      }
    }
    const otpId = randomUUID()
    const code = generateOtp()
    const magicLink =
      input.withMagicLink === true ? createMagicLinkToken({ otpId, hashKey: input.otpHashSecret }) : undefined
    const createdAt = new Date(nowMs)
    const expiresAt = new Date(nowMs + otpLifetimeMs)
    await tx.insert(signerOtps).values({
      id: otpId,
      purpose: input.purpose,
      channel: contact.channel,
      contact: contact.address,
      phonePrefix,
      organizationId: input.organizationId ?? null,
      codeHash: hashOtp({ code, otpId, secret: input.otpHashSecret }),
      magicLinkHash: magicLink?.secretHash ?? null,
      targetPublicKey: input.targetPublicKey ?? null,
      expirationSeconds: input.expirationSeconds ?? null,
      requester: requester.key,
      isReserved: requester.isReserved,
      createdAt,
      expiresAt,
    })
    return {
      otpId,
      code,
      createdAt,
      expiresAt,
      requester,
      ...(magicLink === undefined ? {} : { magicLinkToken: magicLink.token }),
    }
  })
}

async function countSendsSince(
  db: SignerDatabase,
  where: SQL | undefined,
  sinceMs: number,
): Promise<{ sends: number; oldestMs: number }> {
  const [row] = await db
    .select({ sends: count(), oldest: min(signerOtps.createdAt) })
    .from(signerOtps)
    .where(and(where, gt(signerOtps.createdAt, new Date(sinceMs))))
  return { sends: row?.sends ?? 0, oldestMs: row?.oldest?.getTime() ?? sinceMs }
}

function createSendCapError(userMessage: string, retryAfterMs: number, cap: string): AppError {
  return new AppError('RATE_LIMITED', {
    message: `OTP send refused: ${cap}`,
    userMessage,
    details: { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) },
  })
}
