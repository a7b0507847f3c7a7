import { AppError } from '@quicklinks/core/app-error'
import { defaultCodeSendCaps } from '../../signer-config.ts'
import type { SignerContext } from '../../signer-context.ts'
import { deriveOrganizationId } from '../accounts/derive-organization-id.ts'
import { findAccountByContact } from '../accounts/find-account.ts'
import { type ReservedWallet, reserveWallet } from '../accounts/reserve-wallet.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { moveOAuthLinkToCode } from '../oauth-links/oauth-link-for-code.ts'
import { createOtp } from '../otp/create-otp.ts'
import { type CodeRequestOrigin, resolveCodeRequester } from '../otp/resolve-code-requester.ts'
import { buildMagicLink } from './build-magic-link.ts'
import { deliverCode } from './deliver-code.ts'

export type StartContactAuthInput = {
  contact: Contact
  /** E-mail only: `magicLink` also mails a link that signs in when it is opened. */
  emailMode: 'otp' | 'magicLink'
  targetPublicKey?: string
  expirationSeconds?: number
  redirectParams?: string
  /**
   * `signup`: also reserve the wallet this code creates if the contact has no account when it is
   * used, and answer its ids and addresses (see reserveWallet). Made for every contact alike.
   */
  reservesWallet?: boolean
  /** Who asks: a stranger counted per client, or the owner's browser (docs/decisions/0022). */
  origin: CodeRequestOrigin
}

export type StartedContactAuth = { orgId: string; otpId: string; reservation?: ReservedWallet }

/**
 * Starts an e-mail or SMS sign-in (`signup` and `auth`): makes a code and sends it. Answers
 * the same for contacts with and without an account; the orgId is the account's, or the
 * pseudonymous one the account will take at its first sign-in. With `reservesWallet` (`signup`)
 * it also reserves a wallet for the code, for every contact alike (docs/decisions/0019). Creates
 * nothing usable: no account and no session key exist until the code is entered (`otp`) or the
 * link is opened (`magic-link`). In magic-link mode the mail also carries a link with a one-time token, which
 * only the browser holding `targetPublicKey` can trade for a session (see openMagicLink).
 *
 * Fails by rejecting with AppError RATE_LIMITED (a send limit or cap, or a locked contact; see
 * createOtp), VALIDATION_FAILED (magic link without `targetPublicKey`), or the delivery's error.
 */
export async function startContactAuth(
  context: SignerContext,
  input: StartContactAuthInput & { reservesWallet: true },
): Promise<StartedContactAuth & { reservation: ReservedWallet }>
export async function startContactAuth(
  context: SignerContext,
  input: StartContactAuthInput,
): Promise<StartedContactAuth>
export async function startContactAuth(
  context: SignerContext,
  input: StartContactAuthInput,
): Promise<StartedContactAuth> {
  const { db, keyring } = context
  const { contact } = input
  const isMagicLink = input.emailMode === 'magicLink' && contact.channel === 'email'
  if (isMagicLink && input.targetPublicKey === undefined) {
    throw new AppError('VALIDATION_FAILED', {
      userMessage: 'targetPublicKey: is required for a magic link',
      field: 'targetPublicKey',
    })
  }
  const existing = await findAccountByContact(db, contact)
  const orgId = existing?.organizationId ?? deriveOrganizationId(keyring.organizationIdSecret, contact)
  const otp = await createOtp(db, {
    purpose: 'auth',
    contact,
    organizationId: orgId,
    expirationSeconds: input.expirationSeconds ?? context.config.signerSessionSeconds,
    ...(input.targetPublicKey === undefined ? {} : { targetPublicKey: input.targetPublicKey }),
    withMagicLink: isMagicLink,
    requester: resolveCodeRequester(keyring.signInMarkerSecret, {
      origin: input.origin,
      account: existing,
      nowMs: context.now(),
    }),
    caps: context.config.signerCodeSendCaps ?? defaultCodeSendCaps,
    otpHashSecret: keyring.otpHashSecret,
    nowMs: context.now(),
  })
  // A resent account-linking code still links (docs/signer.md#account-linking).
  if (input.targetPublicKey !== undefined) {
    await moveOAuthLinkToCode(db, {
      otpId: otp.otpId,
      contact,
      targetPublicKey: input.targetPublicKey,
      nowMs: context.now(),
    })
  }
  // Before the code leaves: a delivered code always finds its reservation.
  const reservation = input.reservesWallet
    ? await reserveWallet(db, { masterKey: keyring.masterKey, otpId: otp.otpId })
    : undefined
  const magicLink =
    otp.magicLinkToken === undefined
      ? undefined
      : buildMagicLink({
          publicOrigin: context.config.publicOrigin,
          token: otp.magicLinkToken,
          organizationId: orgId,
          isSignup: existing === undefined,
          ...(input.redirectParams === undefined ? {} : { redirectParams: input.redirectParams }),
        })
  await deliverCode(context, {
    otp,
    contact,
    purpose: 'auth',
    ...(magicLink === undefined ? {} : { magicLink }),
  })
  return { orgId, otpId: otp.otpId, ...(reservation === undefined ? {} : { reservation }) }
}
