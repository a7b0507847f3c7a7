import { randomUUID } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import { and, asc, eq, gt } from 'drizzle-orm'
import { lockForTransaction } from '../../db/lock-for-transaction.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { type SignerOtpPurpose, signerOtps } from '../../db/signer-schema.ts'
import { generateOtp } from '../../otp/generate-otp.ts'
import { hashOtp } from '../../otp/hash-otp.ts'
import type { Contact } from '../contacts/contact-schemas.ts'

/** A code works for 10 minutes. */
export const otpLifetimeMs = 10 * 60_000
/** At most 3 codes per contact per 3 minutes. */
export const maxOtpSendsPerWindow = 3
export const otpSendWindowMs = 3 * 60_000
export const otpSendLimitMessage = 'Too many codes were sent to this address. Wait 3 minutes, then try again.'

export type CreateOtpInput = {
  purpose: SignerOtpPurpose
  contact: Contact
  organizationId?: string
  targetPublicKey?: string
  expirationSeconds?: number
  otpHashSecret: Uint8Array
  nowMs: number
}

/**
 * Makes a 6-digit code for a contact and stores only its keyed hash (bound to the new row's id),
 * with a 10-minute expiry. Every row counts as one send: a fourth code for the same contact within
 * 3 minutes is refused. The count and the insert run under a per-contact lock, so concurrent
 * requests cannot slip past the limit.
 *
 * Fails by rejecting with AppError RATE_LIMITED (429, `details.retryAfterSeconds`) past the limit,
 * or on a database error. Returns the code in clear for the caller to deliver; it is never stored.
 */
export async function createOtp(
  db: SignerDatabase,
  input: CreateOtpInput,
): Promise<{ otpId: string; code: string; expiresAt: Date }> {
  const { contact } = input
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, `signer-otp-send:${contact.channel}:${contact.address}`)
    const windowStart = new Date(input.nowMs - otpSendWindowMs)
    const recent = await tx
      .select({ createdAt: signerOtps.createdAt })
      .from(signerOtps)
      .where(
        and(
          eq(signerOtps.channel, contact.channel),
          eq(signerOtps.contact, contact.address),
          gt(signerOtps.createdAt, windowStart),
        ),
      )
      .orderBy(asc(signerOtps.createdAt))
    const oldest = recent[0]
    if (recent.length >= maxOtpSendsPerWindow && oldest !== undefined) {
      const retryAfterMs = oldest.createdAt.getTime() + otpSendWindowMs - input.nowMs
      throw new AppError('RATE_LIMITED', {
        message: `OTP send limit reached for a ${contact.channel} contact`,
        userMessage: otpSendLimitMessage,
        details: { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) },
      })
    }
    const otpId = randomUUID()
    const code = generateOtp()
    const expiresAt = new Date(input.nowMs + otpLifetimeMs)
    await tx.insert(signerOtps).values({
      id: otpId,
      purpose: input.purpose,
      channel: contact.channel,
      contact: contact.address,
      organizationId: input.organizationId ?? null,
      codeHash: hashOtp({ code, otpId, secret: input.otpHashSecret }),
      targetPublicKey: input.targetPublicKey ?? null,
      expirationSeconds: input.expirationSeconds ?? null,
      createdAt: new Date(input.nowMs),
      expiresAt,
    })
    return { otpId, code, expiresAt }
  })
}
