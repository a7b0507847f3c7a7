import { eq } from 'drizzle-orm'
import type { SignerDatabase } from '../db/signer-database.ts'
import { signerServiceKeys } from '../db/signer-schema.ts'
import { exportSigningKeyName } from '../services/keyring/load-signer-keyring.ts'

/**
 * The signer's export signing PUBLIC key (uncompressed hex), which the export frame pins: read from
 * its `signer_service_keys` row, whose public half is readable without the master key. Part of the
 * signer's in-process API (`src/api/`); the frames server asks it. The signer creates the row when
 * its plugin registers, so this is undefined only before the signer's first start.
 *
 * Rejects only when the database fails.
 */
export async function readExportSignerPublicKey(db: SignerDatabase): Promise<string | undefined> {
  const [row] = await db
    .select({ publicKey: signerServiceKeys.publicKey })
    .from(signerServiceKeys)
    .where(eq(signerServiceKeys.name, exportSigningKeyName))
  return row?.publicKey
}
