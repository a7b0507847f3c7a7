import { and, asc, eq, inArray } from 'drizzle-orm'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerAuthMethods } from '../../db/signer-schema.ts'
import { getAccountOrThrow } from './get-account-or-throw.ts'

/** A passkey as list-auth-methods shows it: the credential id, its name, when it was added. */
export type ListedPasskey = { id: string; name: string | null; createdAt: string }

/** A linked OAuth / OIDC provider as list-auth-methods shows it. */
export type ListedOauthProvider = {
  providerId: string | null
  issuer: string
  subject: string
  email: string | null
  createdAt: string
}

/** What `list-auth-methods` answers: the contacts, the passkeys and the linked providers. */
export type AuthMethodList = {
  email: string | null
  phone: string | null
  passkeys: ListedPasskey[]
  oauthProviders: ListedOauthProvider[]
}

function readText(data: Record<string, unknown> | null, key: string): string | null {
  const value = data?.[key]
  return typeof value === 'string' ? value : null
}

/**
 * The user's sign-in methods from `signer_auth_methods`: the e-mail and phone of the user row,
 * passkeys (rows `passkey`, identifier the credential id, `data.name`) and linked providers (rows
 * `oauth`, identifier `{issuer}|{subject}`, `data.providerId` and `data.email`), oldest first.
 * Custom-JWT identities and second factors are not listed. Rejects with NOT_FOUND when the user
 * is gone.
 */
export async function listAuthMethods(db: SignerDatabase, userId: string): Promise<AuthMethodList> {
  const account = await getAccountOrThrow(db, userId)
  const rows = await db
    .select({
      type: signerAuthMethods.type,
      identifier: signerAuthMethods.identifier,
      data: signerAuthMethods.data,
      createdAt: signerAuthMethods.createdAt,
    })
    .from(signerAuthMethods)
    .where(and(eq(signerAuthMethods.userId, userId), inArray(signerAuthMethods.type, ['passkey', 'oauth'])))
    .orderBy(asc(signerAuthMethods.createdAt), asc(signerAuthMethods.id))
  const passkeys: ListedPasskey[] = []
  const oauthProviders: ListedOauthProvider[] = []
  for (const row of rows) {
    const createdAt = row.createdAt.toISOString()
    if (row.type === 'passkey') {
      passkeys.push({ id: row.identifier, name: readText(row.data, 'name'), createdAt })
    } else {
      // The issuer may itself hold no '|'; the subject is whatever follows the first one.
      const separator = row.identifier.indexOf('|')
      oauthProviders.push({
        providerId: readText(row.data, 'providerId'),
        issuer: separator < 0 ? row.identifier : row.identifier.slice(0, separator),
        subject: separator < 0 ? '' : row.identifier.slice(separator + 1),
        email: readText(row.data, 'email'),
        createdAt,
      })
    }
  }
  return { email: account.email, phone: account.phone, passkeys, oauthProviders }
}
