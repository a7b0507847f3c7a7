import { p256 } from '@noble/curves/nist.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { eq } from 'drizzle-orm'
import { KeystoreError } from '../../crypto/keystore/keystore-error.ts'
import { type LoadedMasterKey, loadMasterKey } from '../../crypto/keystore/load-master-key.ts'
import { openSecret } from '../../crypto/keystore/open-secret.ts'
import { sealSecret } from '../../crypto/keystore/seal-secret.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerServiceKeys } from '../../db/signer-schema.ts'

/** Every key the signer works with, loaded once at start-up. */
export type SignerKeyring = {
  /** The key-encryption key that seals wallet seeds and the export signing key. */
  masterKey: Uint8Array
  masterKeySource: LoadedMasterKey['source']
  /** HMAC key of the pseudonymous orgIds (derived). */
  organizationIdSecret: Uint8Array
  /** HMAC key of stored OTP hashes (derived). */
  otpHashSecret: Uint8Array
  /** HS256 key of verification tokens from verify-otp (derived). */
  verificationTokenSecret: Uint8Array
  /** HMAC key of the recent-sign-in markers (derived; sign-in-marker.ts). */
  signInMarkerSecret: Uint8Array
  /** P-256 scalar that signs export bundles; `createExportBundle` works on a copy. */
  exportSigningKey: Uint8Array
  /** Its uncompressed public key, lower-case hex: what the export frame pins. */
  exportSignerPublicKey: string
}

/** The `signer_service_keys` row of the export signing key (its public half is readable without the master key). */
export const exportSigningKeyName = 'export-signing-key'
// The sealed record is bound to this owner id and purpose (seal-secret's AAD).
const serviceOwnerId = 'signer-service'

/**
 * Derives one 32-byte sub-key from the master key: HKDF-SHA256 with an empty salt and a distinct
 * info string per use, so no two uses share a key and none reveals the master key.
 */
export function deriveSignerSecret(masterKey: Uint8Array, info: string): Uint8Array {
  return hkdf(sha256, masterKey, undefined, utf8ToBytes(`quick-links/signer/${info}`), 32)
}

/**
 * Loads the master key (`config.signerMasterKey`, else the 0600 file in `dataDir`, created on first
 * start), derives the HMAC and token keys from it, and loads the export signing key, generating it
 * on first start. The signing key lives in the database, sealed under the master key, so every
 * instance signs with the one key the frames pin; concurrent first starts agree (insert-if-absent).
 *
 * Fails by throwing the KeystoreError of `loadMasterKey` (bad or insecure key), or
 * `SEALED_SECRET_WRONG_KEY` / `SEALED_SECRET_REJECTED` when the stored signing key was sealed under
 * another master key (the database belongs with another key: restore that key).
 */
export async function loadSignerKeyring(input: {
  db: SignerDatabase
  masterKey: string | undefined
  dataDir: string
}): Promise<SignerKeyring> {
  const master = await loadMasterKey({ masterKey: input.masterKey, dataDir: input.dataDir })
  const exportSigningKey = await loadExportSigningKey(input.db, master.key)
  return {
    masterKey: master.key,
    masterKeySource: master.source,
    organizationIdSecret: deriveSignerSecret(master.key, 'organization-id/v1'),
    otpHashSecret: deriveSignerSecret(master.key, 'otp-hash/v1'),
    verificationTokenSecret: deriveSignerSecret(master.key, 'verification-token/v1'),
    signInMarkerSecret: deriveSignerSecret(master.key, 'sign-in-marker/v1'),
    exportSigningKey,
    exportSignerPublicKey: bytesToHex(p256.getPublicKey(exportSigningKey, false)),
  }
}

async function loadExportSigningKey(db: SignerDatabase, masterKey: Uint8Array): Promise<Uint8Array> {
  const binding = { keyEncryptionKey: masterKey, userId: serviceOwnerId, purpose: exportSigningKeyName }
  const candidate = p256.utils.randomSecretKey()
  await db
    .insert(signerServiceKeys)
    .values({
      name: exportSigningKeyName,
      sealedSecret: await sealSecret({ ...binding, plaintext: candidate }),
      publicKey: bytesToHex(p256.getPublicKey(candidate, false)),
    })
    .onConflictDoNothing()
  candidate.fill(0)
  const [row] = await db
    .select({ sealedSecret: signerServiceKeys.sealedSecret })
    .from(signerServiceKeys)
    .where(eq(signerServiceKeys.name, exportSigningKeyName))
  if (!row) throw new Error('The export signing key row is missing right after its insert')
  try {
    return await openSecret({ ...binding, sealed: row.sealedSecret })
  } catch (error) {
    if (error instanceof KeystoreError && error.reason !== 'SEALED_SECRET_MALFORMED') {
      throw new KeystoreError(
        error.reason,
        'The signer keys in this database were sealed under another master key. Start with the ' +
          'SIGNER_MASTER_KEY (or the signer-master.key file) this database was created with; every ' +
          'instance sharing a database needs the same key.',
        error,
      )
    }
    throw error
  }
}
