import { and, eq } from 'drizzle-orm'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerAuthMethods, signerUsers } from '../../db/signer-schema.ts'
import type { PasskeyData } from './verify-passkey-registration.ts'

/** A stored passkey and whose it is. */
export type PasskeyRecord = {
  /** The `signer_auth_methods` row id. */
  rowId: string
  credentialId: string
  userId: string
  organizationId: string
  data: PasskeyData
}

/** The passkey with this credential id (base64url), or undefined. Rejects on a database error. */
export async function findPasskey(
  db: SignerDatabase,
  credentialId: string,
): Promise<PasskeyRecord | undefined> {
  const [row] = await db
    .select({
      rowId: signerAuthMethods.id,
      userId: signerAuthMethods.userId,
      organizationId: signerUsers.organizationId,
      data: signerAuthMethods.data,
    })
    .from(signerAuthMethods)
    .innerJoin(signerUsers, eq(signerUsers.id, signerAuthMethods.userId))
    .where(and(eq(signerAuthMethods.type, 'passkey'), eq(signerAuthMethods.identifier, credentialId)))
  if (row === undefined || !isPasskeyData(row.data)) return undefined
  return {
    rowId: row.rowId,
    credentialId,
    userId: row.userId,
    organizationId: row.organizationId,
    data: row.data,
  }
}

function isPasskeyData(data: Record<string, unknown> | null): data is PasskeyData {
  return (
    data !== null &&
    typeof data.publicKey === 'string' &&
    typeof data.counter === 'number' &&
    Array.isArray(data.transports)
  )
}
