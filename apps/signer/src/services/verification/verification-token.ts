import { AppError } from '@quicklinks/core/app-error'
import { and, eq, isNull } from 'drizzle-orm'
import { jwtVerify, SignJWT } from 'jose'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { type SignerContactChannel, signerOtps } from '../../db/signer-schema.ts'
import type { Contact } from '../contacts/contact-schemas.ts'

/**
 * `details.reason` of every 401 about a verification token (invalid, expired, spent, or for
 * another contact): the request is refused, the session key that stamped it is fine, so a wallet
 * must not sign out over it (stamp refusals carry their own STAMP_/KEY_… reasons).
 */
export const verificationRefusedReason = 'VERIFICATION_REFUSED'

/** A verification token proves control of a contact for 10 minutes. */
export const verificationTokenLifetimeSeconds = 600

const issuer = 'quick-links-signer'
const audience = 'quick-links-signer/contact-verification'

/** What a verification token vouches for. */
export type VerifiedContact = { contact: Contact; otpId: string }

/**
 * Mints the token `verify-otp` answers: an HS256 JWT under a key derived from the master key, with
 * `contact`, `channel` and `otpId` in its payload and a 10-minute expiry. Never throws for a valid key.
 */
export async function createVerificationToken(
  secret: Uint8Array,
  input: VerifiedContact & { nowMs: number },
): Promise<string> {
  const issuedAt = Math.floor(input.nowMs / 1000)
  return new SignJWT({ contact: input.contact.address, channel: input.contact.channel, otpId: input.otpId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + verificationTokenLifetimeSeconds)
    .sign(secret)
}

/**
 * Checks a verification token (signature, issuer, audience, expiry at `nowMs`) and returns the
 * contact it vouches for.
 *
 * Fails by throwing AppError UNAUTHORIZED (401) for a token that is malformed, forged or expired.
 */
export async function readVerificationToken(
  secret: Uint8Array,
  token: string,
  nowMs: number,
): Promise<VerifiedContact> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      issuer,
      audience,
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
    })
    const { contact, channel, otpId } = payload
    if (typeof contact !== 'string' || !isChannel(channel) || typeof otpId !== 'string') {
      throw new Error('verification token payload is incomplete')
    }
    return { contact: { channel, address: contact }, otpId }
  } catch (error) {
    throw new AppError('UNAUTHORIZED', {
      message: 'Verification token refused',
      userMessage: 'The verification has expired or is not valid. Request a new code.',
      details: { reason: verificationRefusedReason },
      cause: error,
    })
  }
}

/**
 * Spends a verification token: it works once. Marks the code row it came from.
 *
 * Fails by rejecting with AppError UNAUTHORIZED when it was already spent.
 */
export async function spendVerificationToken(
  db: SignerDatabase,
  otpId: string,
  nowMs: number,
): Promise<void> {
  const rows = await db
    .update(signerOtps)
    .set({ tokenUsedAt: new Date(nowMs) })
    .where(and(eq(signerOtps.id, otpId), isNull(signerOtps.tokenUsedAt)))
    .returning({ id: signerOtps.id })
  if (rows.length === 0) {
    throw new AppError('UNAUTHORIZED', {
      message: 'Verification token already spent',
      userMessage: 'This verification was already used. Request a new code.',
      details: { reason: verificationRefusedReason },
    })
  }
}

function isChannel(value: unknown): value is SignerContactChannel {
  return value === 'email' || value === 'sms'
}
