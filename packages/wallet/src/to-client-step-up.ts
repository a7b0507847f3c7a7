import { stampWithPasskey } from './passkey-webauthn.ts'
import type { ClientStepUp } from './signer-client.ts'
import type { StepUp } from './signer-types.ts'

/**
 * The client's form of a {@link StepUp}: `usePasskey` becomes a passkey prompt (user verification
 * required) that stamps the change itself instead of the session key (docs/signer.md#step-up).
 */
export function toClientStepUp({ usePasskey, passkeyIds, ...proof }: StepUp): ClientStepUp {
  if (usePasskey !== true) return proof
  return {
    ...proof,
    stampWithPasskey: (body) =>
      stampWithPasskey(body, passkeyIds === undefined ? {} : { credentialIds: passkeyIds }),
  }
}
