import type { SignerContext } from '../../signer-context.ts'
import { lockUserSignInMethods } from '../accounts/remove-sign-in-method.ts'
import { sendSecurityNotice } from '../accounts/send-security-notice.ts'
import {
  deleteTotpFactors,
  findTotpRows,
  listTotpFactors,
  type MultiFactor,
  verifyTotpFactor,
} from './totp-factors.ts'

/**
 * `auth-verify-multi-factor` with its security notice (docs/signer.md#security-notices): confirms
 * the factor (verifyTotpFactor) and, when this call is what confirmed it, tells the account's
 * contact, all in one transaction under the user's method lock. A factor confirmed before is told
 * nothing again. Fails as verifyTotpFactor does, or with the delivery's error when the notice
 * cannot be handed over (then the factor stays unconfirmed and the code unspent).
 */
export async function confirmTotpFactorAndTell(
  context: SignerContext,
  input: { userId: string; multiFactorId: string; code: string },
): Promise<MultiFactor[]> {
  return context.db.transaction(async (tx) => {
    await lockUserSignInMethods(tx, input.userId)
    const before = (await findTotpRows(tx, input.userId, [input.multiFactorId]))[0]
    const confirmed = await verifyTotpFactor({ ...context, db: tx }, input)
    if (before !== undefined && !before.data.verified) {
      await sendSecurityNotice(context, tx, {
        userId: input.userId,
        event: {
          kind: 'factor-confirmed',
          factorName: before.data.name,
          firstFactor: confirmed.length === 1,
        },
      })
    }
    return confirmed
  })
}

/**
 * `auth-delete-multi-factors` with its security notice: removes the factors (deleteTotpFactors)
 * and, when a confirmed one was among them, tells the account's contact, in one transaction under
 * the user's method lock. Dropping an unconfirmed enrolment is told nothing. Rejects on a database
 * error or with the delivery's error (then nothing was removed).
 */
export async function deleteTotpFactorsAndTell(
  context: SignerContext,
  input: { userId: string; multiFactorIds: string[] },
): Promise<MultiFactor[]> {
  return context.db.transaction(async (tx) => {
    await lockUserSignInMethods(tx, input.userId)
    const before = await listTotpFactors(tx, input.userId)
    const left = await deleteTotpFactors(tx, input)
    const removed = before.filter(
      (factor) => !left.some((kept) => kept.multiFactorId === factor.multiFactorId),
    )
    if (removed.length > 0) {
      await sendSecurityNotice(context, tx, {
        userId: input.userId,
        event: {
          kind: 'factor-deleted',
          factorNames: removed.map((factor) => factor.name),
          factorsLeft: left.length,
        },
      })
    }
    return left
  })
}
