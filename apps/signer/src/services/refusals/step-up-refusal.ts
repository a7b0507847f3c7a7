import { AppError } from '@quicklinks/core/app-error'
import { type SignerRefusalReason, signerRefusalReasons } from '@quicklinks/protocol/signer-activities'
import { z } from 'zod'

// The step-up's wire shape and refusals (docs/signer.md#step-up), apart from its checks
// (step-up/require-step-up.ts) so the stamp verifier and the sign-ins can use them.

/** `parameters.stepUp` of a `reauth` call, as the signer reads it (@quicklinks/protocol/step-up). */
export const stepUpProofSchema = z
  .object({
    verificationToken: z.string().min(1).max(4096).optional(),
    oidcToken: z.string().min(1).max(16_384).optional(),
    providerName: z.string().min(1).max(64).optional(),
    jwt: z.string().min(1).max(16_384).optional(),
    totpCode: z.string().max(32).optional(),
  })
  .strict()

const refusalMessages: Record<SignerRefusalReason, string> = {
  NOT_FOR_THE_PAGE: 'This change is made inside the wallet frames.',
  STEP_UP_REQUIRED:
    'Confirm it’s you first: enter a code sent to your e-mail or phone, or use one of your passkeys.',
  STEP_UP_REFUSED:
    'That confirmation has expired, was already used or is not for this account. Confirm it’s you again.',
  STEP_UP_TOTP_REQUIRED: 'Enter the current code from your authenticator app too.',
  STEP_UP_TOTP_REFUSED: 'That authenticator code is not right. Enter the current code from your app.',
  USER_VERIFICATION_REQUIRED:
    'Your passkey must verify it’s you (PIN, fingerprint or face) to confirm this change.',
}

/** The step-up refusal with its code (403: the session stays). */
export function refuse(reason: SignerRefusalReason, cause?: unknown): AppError {
  return new AppError('FORBIDDEN', {
    message: `Step-up refused: ${reason}`,
    userMessage: refusalMessages[reason],
    details: { reason: signerRefusalReasons[reason] },
    ...(cause === undefined ? {} : { cause }),
  })
}
