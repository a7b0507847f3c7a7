import { AppError } from '@quicklinks/core/app-error'
import { and, eq } from 'drizzle-orm'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerAuthMethods } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { lockUserSignInMethods } from '../accounts/remove-sign-in-method.ts'
import { sendSecurityNotice } from '../accounts/send-security-notice.ts'
import type { VerifiedPasskey } from './verify-passkey-registration.ts'

/** The refusal of a passkey that is already registered (to this or another account). */
export function passkeyTakenError(): AppError {
  return new AppError('CONFLICT', {
    message: 'passkey credential id already registered',
    userMessage: 'This passkey is already registered.',
  })
}

/**
 * Adds a verified passkey to a user's sign-in methods (`signer_auth_methods` type `passkey`,
 * identifier the credential id), under the user's method lock so it never interleaves with a
 * removal. The account's contact is told in the same transaction (docs/signer.md#security-notices),
 * so a passkey is never added unannounced. Throws CONFLICT ('This passkey is already registered.')
 * for a credential id stored before, or the delivery's error when the notice cannot be handed over
 * (then nothing was added).
 */
export async function addPasskeyToUser(
  context: SignerContext,
  input: { userId: string; passkey: VerifiedPasskey },
): Promise<void> {
  await context.db.transaction(async (tx) => {
    await lockUserSignInMethods(tx, input.userId)
    const inserted = await tx
      .insert(signerAuthMethods)
      .values({
        userId: input.userId,
        type: 'passkey',
        identifier: input.passkey.credentialId,
        data: input.passkey.data,
      })
      .onConflictDoNothing()
      .returning({ id: signerAuthMethods.id })
    if (inserted.length === 0) throw passkeyTakenError()
    await sendSecurityNotice(context, tx, {
      userId: input.userId,
      event: { kind: 'passkey-added', passkeyName: input.passkey.data.name },
    })
  })
}

/** Writes a passkey's data on the row `createAccount` made for it (which carries no data). */
export async function writePasskeyData(db: SignerDatabase, passkey: VerifiedPasskey): Promise<void> {
  await db
    .update(signerAuthMethods)
    .set({ data: passkey.data })
    .where(and(eq(signerAuthMethods.type, 'passkey'), eq(signerAuthMethods.identifier, passkey.credentialId)))
}
