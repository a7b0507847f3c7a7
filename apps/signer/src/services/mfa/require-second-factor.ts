import type { SignerContext } from '../../signer-context.ts'
import type { SignerAccount } from '../accounts/find-account.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { sealMfaChallenge } from './mfa-challenge.ts'
import { listTotpFactors } from './totp-factors.ts'

/**
 * What a sign-in answers when the account has a confirmed second factor: no session yet, but a
 * sealed `encryptedPayload` to hand back to `auth-validate-multi-factors` with a code of one of
 * `multiFactors` (docs/signer.md#mfa-required).
 */
export type MfaRequiredAnswer = {
  status: 'MFA_REQUIRED'
  encryptedPayload: string
  multiFactors: { multiFactorId: string; multiFactorType: 'totp' }[]
  orgId: string
}

/**
 * Asks for the second factor when the account signing in has a confirmed TOTP factor: seals the
 * pending sign-in (bound to the user, `targetPublicKey` and the session length; 5 minutes) and
 * answers MFA_REQUIRED. `contact` is the e-mail or phone whose code proved the first factor; a
 * sign-in without one (a social login, a custom JWT) leaves it out, and wrong second-factor codes
 * then count against the user's own budget (docs/signer.md#mfa-required). Undefined when the
 * account has no confirmed factor: the caller mints the session as usual.
 *
 * Fails by rejecting on a database or keystore error.
 */
export async function requireSecondFactor(
  context: SignerContext,
  input: {
    account: Pick<SignerAccount, 'userId' | 'organizationId'>
    contact?: Contact
    targetPublicKey: string
    expirationSeconds: number
  },
): Promise<MfaRequiredAnswer | undefined> {
  const { account } = input
  const factors = await listTotpFactors(context.db, account.userId)
  if (factors.length === 0) return undefined
  const encryptedPayload = await sealMfaChallenge(context, {
    userId: account.userId,
    organizationId: account.organizationId,
    ...(input.contact === undefined
      ? { channel: 'user' as const, contact: account.userId }
      : { channel: input.contact.channel, contact: input.contact.address }),
    targetPublicKey: input.targetPublicKey,
    expirationSeconds: input.expirationSeconds,
  })
  return {
    status: 'MFA_REQUIRED',
    encryptedPayload,
    multiFactors: factors.map((factor) => ({
      multiFactorId: factor.multiFactorId,
      multiFactorType: factor.multiFactorType,
    })),
    orgId: account.organizationId,
  }
}
