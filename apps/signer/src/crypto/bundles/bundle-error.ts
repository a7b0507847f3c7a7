import { AppError, type ErrorCode } from '@quicklinks/core/app-error'

/** Why a credential or export bundle could not be made or opened. */
export const bundleErrorReasons = {
  TARGET_KEY_INVALID: { code: 'BAD_REQUEST', userMessage: 'The target public key is not a valid P-256 key.' },
  EMBEDDED_KEY_INVALID: { code: 'BAD_REQUEST', userMessage: 'The embedded key is not a valid P-256 key.' },
  PLAINTEXT_INVALID: { code: 'INTERNAL', userMessage: 'The secret to encrypt is not in the expected form.' },
  SIGNING_KEY_INVALID: { code: 'INTERNAL', userMessage: 'The service signing key is not valid.' },
  BUNDLE_MALFORMED: { code: 'BAD_REQUEST', userMessage: 'The bundle is not in the expected format.' },
  SIGNER_NOT_PINNED: { code: 'FORBIDDEN', userMessage: 'The bundle was not signed by the expected key.' },
  SIGNATURE_INVALID: { code: 'FORBIDDEN', userMessage: 'The bundle signature is not valid.' },
  ORGANIZATION_MISMATCH: { code: 'FORBIDDEN', userMessage: 'The bundle belongs to another organization.' },
  DECRYPTION_FAILED: { code: 'BAD_REQUEST', userMessage: 'The bundle could not be decrypted with this key.' },
} as const satisfies Record<string, { code: ErrorCode; userMessage: string }>

export type BundleErrorReason = keyof typeof bundleErrorReasons

/** A bundle refused or not built; callers (frames, routes) branch on `reason`. */
export class BundleError extends AppError {
  override readonly name: string = 'BundleError'
  readonly reason: BundleErrorReason

  constructor(reason: BundleErrorReason, message: string, cause?: unknown) {
    const { code, userMessage } = bundleErrorReasons[reason]
    super(code, { message, userMessage, ...(cause === undefined ? {} : { cause }) })
    this.reason = reason
  }
}
