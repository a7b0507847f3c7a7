import { AppError } from '@quicklinks/core/app-error'

/**
 * Why the keystore refused: all are server-side faults (configuration, storage or a bug), so all
 * map to INTERNAL and never show details to users.
 */
export type KeystoreErrorReason =
  | 'MASTER_KEY_INVALID'
  | 'MASTER_KEY_FILE_INSECURE'
  | 'MNEMONIC_INVALID'
  | 'SEED_INVALID'
  | 'DERIVATION_PATH_INVALID'
  | 'SEALED_SECRET_MALFORMED'
  | 'SEALED_SECRET_WRONG_KEY'
  | 'SEALED_SECRET_REJECTED'
  | 'SEALED_SECRET_BINDING_INVALID'
  | 'SIGN_REQUEST_INVALID'

/** A keystore failure; start-up and the signing service branch on `reason`. */
export class KeystoreError extends AppError {
  override readonly name: string = 'KeystoreError'
  readonly reason: KeystoreErrorReason

  constructor(reason: KeystoreErrorReason, message: string, cause?: unknown) {
    super('INTERNAL', { message, ...(cause === undefined ? {} : { cause }) })
    this.reason = reason
  }
}
