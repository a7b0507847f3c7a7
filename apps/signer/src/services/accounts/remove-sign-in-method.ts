import { AppError } from '@quicklinks/core/app-error'
import { and, eq, inArray } from 'drizzle-orm'
import { lockForTransaction } from '../../db/lock-for-transaction.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { type SignerAuthMethodType, signerAuthMethods, signerUsers } from '../../db/signer-schema.ts'

/**
 * The method types that let a user sign in on their own. A TOTP factor is a second factor, so it
 * neither counts as a way in nor is removed through here.
 */
export const firstFactorTypes = [
  'email',
  'sms',
  'passkey',
  'oauth',
  'jwt',
] as const satisfies readonly SignerAuthMethodType[]

export type FirstFactorType = (typeof firstFactorTypes)[number]

/**
 * Removes one of a user's sign-in methods (`type` and `identifier` as `signer_auth_methods` keys
 * it), refusing to remove the last one: an account nobody can sign in to is a lost wallet. An
 * e-mail or phone removal also clears the contact on the user row. Runs under the user's advisory
 * lock so two concurrent removals of the last two methods cannot both pass the count.
 *
 * Throws NOT_FOUND when the user has no such method and CONFLICT ('This is your only way to sign
 * in. Add another one before you remove it.') when it is the last.
 */
export async function removeSignInMethod(
  db: SignerDatabase,
  input: { userId: string; type: FirstFactorType; identifier: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockForTransaction(tx, `signer-user-methods:${input.userId}`)
    const methods = await tx
      .select({ type: signerAuthMethods.type, identifier: signerAuthMethods.identifier })
      .from(signerAuthMethods)
      .where(
        and(
          eq(signerAuthMethods.userId, input.userId),
          inArray(signerAuthMethods.type, [...firstFactorTypes]),
        ),
      )
    const target = methods.find(
      (method) => method.type === input.type && method.identifier === input.identifier,
    )
    if (target === undefined) {
      throw new AppError('NOT_FOUND', { userMessage: 'That sign-in method is not on your account.' })
    }
    if (methods.length <= 1) {
      throw new AppError('CONFLICT', {
        message: 'Refused to remove the last sign-in method',
        userMessage: 'This is your only way to sign in. Add another one before you remove it.',
      })
    }
    await tx
      .delete(signerAuthMethods)
      .where(
        and(
          eq(signerAuthMethods.userId, input.userId),
          eq(signerAuthMethods.type, input.type),
          eq(signerAuthMethods.identifier, input.identifier),
        ),
      )
    if (input.type === 'email' || input.type === 'sms') {
      await tx
        .update(signerUsers)
        .set(
          input.type === 'email'
            ? { email: null, updatedAt: new Date() }
            : { phone: null, updatedAt: new Date() },
        )
        .where(eq(signerUsers.id, input.userId))
    }
  })
}

/**
 * Takes the user's method lock for the rest of `tx`: call it before adding a method inside a
 * transaction so an add and a removal of the same user never interleave.
 */
export async function lockUserSignInMethods(tx: SignerDatabase, userId: string): Promise<void> {
  await lockForTransaction(tx, `signer-user-methods:${userId}`)
}
