import { signerServiceKeys } from '@quicklinks/signer/db/signer-schema'
import { eq } from 'drizzle-orm'
import type { Database } from '../db/create-database-client.ts'

// The row name the signer's keyring stores its export signing key under
// (apps/signer/src/services/keyring/load-signer-keyring.ts).
const exportSigningKeyName = 'export-signing-key'

/**
 * Reads the signer's export signing PUBLIC key (uncompressed hex) from its `signer_service_keys`
 * row, which keeps the public half readable without the master key. The signer creates the row
 * when it registers, so this is undefined only before the signer's first start.
 *
 * Fails by rejecting with the database error.
 */
export async function readExportSignerPublicKey(db: Database): Promise<string | undefined> {
  const [row] = await db
    .select({ publicKey: signerServiceKeys.publicKey })
    .from(signerServiceKeys)
    .where(eq(signerServiceKeys.name, exportSigningKeyName))
  return row?.publicKey
}
