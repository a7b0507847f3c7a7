import { AppError } from '@quicklinks/core/app-error'
import { eq } from 'drizzle-orm'
import { parseMagicLinkToken } from '../../crypto/otp/magic-link-token.ts'
import { signerOtps } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { consumeOtp, createOtpExpiredError } from '../otp/consume-otp.ts'
import { finishContactSignIn, type MfaRequiredAnswer } from './finish-contact-sign-in.ts'
import type { SignInAnswer } from './finish-sign-in.ts'

export type OpenMagicLinkInput = {
  orgId: string
  /** The link's `bundle` parameter: `{otpId}.{secret}`. */
  token: string
  targetPublicKey: string
  expirationSeconds?: number
}

export const magicLinkOtherBrowserMessage =
  'This sign-in link could not be opened here. Open it in the browser where you asked for it, or request a new one.'

/**
 * `magic-link`: the moment a magic link is opened. Checks that the browser opening it holds the
 * key the link was asked for (`targetPublicKey` as sent to `auth`), spends the link like its
 * code (one use, the code in the same mail dies with it, wrong secrets count against the
 * contact's failure budget, a locked contact is refused), then creates the account at the first
 * sign-in and mints the session key, encrypted to that key. Before this call nothing usable
 * exists for the link.
 * With a confirmed second factor on the account it answers MFA_REQUIRED instead (finish-contact-sign-in.ts).
 *
 * Fails by rejecting with AppError OTP_EXPIRED (401, "This sign-in link no longer works…") for a
 * malformed, unknown, used, replaced or expired link, UNAUTHORIZED (401) when the link belongs to
 * another orgId or is opened in another browser (it stays usable in the right one), RATE_LIMITED
 * (429) while the contact is locked, or on a database or keystore error.
 */
export async function openMagicLink(
  context: SignerContext,
  input: OpenMagicLinkInput,
): Promise<SignInAnswer | MfaRequiredAnswer> {
  const token = parseMagicLinkToken(input.token)
  if (token === undefined) throw createOtpExpiredError('malformed magic-link token', 'magicLink')
  const [issued] = await context.db
    .select({ organizationId: signerOtps.organizationId, targetPublicKey: signerOtps.targetPublicKey })
    .from(signerOtps)
    .where(eq(signerOtps.id, token.otpId))
  if (issued !== undefined && issued.organizationId !== input.orgId) {
    throw new AppError('UNAUTHORIZED', {
      message: 'Magic link was issued for another orgId',
      userMessage: 'This sign-in link was sent for another sign-in. Request a new one.',
    })
  }
  if (issued !== undefined && issued.targetPublicKey !== input.targetPublicKey) {
    throw new AppError('UNAUTHORIZED', {
      message: 'Magic link opened with another key than the one it was asked for',
      userMessage: magicLinkOtherBrowserMessage,
    })
  }
  const otp = await consumeOtp(context, {
    otpId: token.otpId,
    purpose: 'auth',
    secret: { kind: 'magicLink', secret: token.secret },
  })
  return finishContactSignIn(context, {
    otp,
    orgId: input.orgId,
    targetPublicKey: input.targetPublicKey,
    ...(input.expirationSeconds === undefined ? {} : { expirationSeconds: input.expirationSeconds }),
  })
}
