import { AppError } from '@quicklinks/core/app-error'
import { eq } from 'drizzle-orm'
import { signerOtps } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { createAccount } from '../accounts/create-account.ts'
import { deriveOrganizationId } from '../accounts/derive-organization-id.ts'
import { findAccountByContact } from '../accounts/find-account.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { createOtp } from '../otp/create-otp.ts'
import { mintCredentialBundle } from '../sessions/mint-credential-bundle.ts'
import { buildMagicLink } from './build-magic-link.ts'
import { deliverCode } from './deliver-code.ts'

export type StartContactAuthInput = {
  contact: Contact
  /** E-mail only: `magicLink` also mails a link carrying a credential bundle. */
  emailMode: 'otp' | 'magicLink'
  targetPublicKey?: string
  expirationSeconds?: number
  redirectParams?: string
}

/**
 * Starts an e-mail or SMS sign-in (`signup` and `auth` alike): makes a code and sends it. Answers
 * the same for contacts with and without an account; the orgId is the account's, or the
 * pseudonymous one the account will take at its first sign-in. In magic-link mode it also mints a
 * session key encrypted to `targetPublicKey` (creating the account for a new contact) and mails the
 * link with the code.
 *
 * Fails by rejecting with AppError RATE_LIMITED (4th send within 3 minutes), VALIDATION_FAILED
 * (magic link without `targetPublicKey`), or the delivery's error.
 */
export async function startContactAuth(
  context: SignerContext,
  input: StartContactAuthInput,
): Promise<{ orgId: string; otpId: string }> {
  const { db, keyring } = context
  const { contact } = input
  if (input.emailMode === 'magicLink' && input.targetPublicKey === undefined) {
    throw new AppError('VALIDATION_FAILED', {
      userMessage: 'targetPublicKey: is required for a magic link',
      field: 'targetPublicKey',
    })
  }
  const existing = await findAccountByContact(db, contact)
  let orgId = existing?.organizationId ?? deriveOrganizationId(keyring.organizationIdSecret, contact)
  const expirationSeconds = input.expirationSeconds ?? context.config.signerSessionSeconds
  const { otpId, code } = await createOtp(db, {
    purpose: 'auth',
    contact,
    organizationId: orgId,
    expirationSeconds,
    ...(input.targetPublicKey === undefined ? {} : { targetPublicKey: input.targetPublicKey }),
    otpHashSecret: keyring.otpHashSecret,
    nowMs: context.now(),
  })

  let magicLink: string | undefined
  if (input.emailMode === 'magicLink' && input.targetPublicKey !== undefined) {
    const { account, isCreated } = await createAccount(db, {
      masterKey: keyring.masterKey,
      contact,
      preferredOrganizationId: orgId,
    })
    if (isCreated || account.organizationId !== orgId) {
      orgId = account.organizationId
      await db
        .update(signerOtps)
        .set({ createdAccount: isCreated, organizationId: orgId })
        .where(eq(signerOtps.id, otpId))
    }
    const { credentialBundle } = await mintCredentialBundle(db, {
      userId: account.userId,
      targetPublicKey: input.targetPublicKey,
      expirationSeconds,
      nowMs: context.now(),
    })
    magicLink = buildMagicLink({
      publicOrigin: context.config.publicOrigin,
      credentialBundle,
      organizationId: orgId,
      isSignup: isCreated,
      ...(input.redirectParams === undefined ? {} : { redirectParams: input.redirectParams }),
    })
  }

  await deliverCode(context, {
    otpId,
    contact,
    code,
    purpose: 'sign-in',
    ...(magicLink === undefined ? {} : { magicLink }),
  })
  return { orgId, otpId }
}
