import type { ContactChange, ContactRemoval } from '@quicklinks/protocol/frame-only-activities'
import type { AccessChangeCallName } from '@quicklinks/protocol/signer-activities'
import type { Stamp, StampedCall } from '@quicklinks/protocol/stamped-call'
import type { StepUpProof } from '@quicklinks/protocol/step-up'

/**
 * Holds the embedded key (the HPKE target of credential bundles) and the session key that stamps
 * requests. Two implementations: {@link createFrameStamper} (the auth frame on the frames origin,
 * keys non-extractable in its IndexedDB) and {@link createKeyStamper} (in memory, for Node).
 */
export type Stamper = {
  /** 'frame' sessions export the seed phrase by default (docs/product.md#wallet-export); 'key' the private key. */
  readonly kind: 'frame' | 'key'
  /** The embedded public key, uncompressed P-256 hex: a login's `targetPublicKey`. */
  getPublicKey(): Promise<string>
  /**
   * Opens a credential bundle (encrypted to {@link getPublicKey}) into the session key.
   * Rejects with 'Failed to inject credential bundle' when it cannot be opened.
   */
  injectCredentialBundle(input: {
    bundle: string
    organizationId: string
    expiresAtMs: number
  }): Promise<void>
  /**
   * Stamps a request body with the session key; rejects when there is none or it expired. The
   * auth frame refuses export and contact-change bodies (@quicklinks/protocol/frame-only-activities).
   */
  stamp(body: string): Promise<Stamp>
  /**
   * Builds the contact change's body where the session key is (for the session's organization,
   * dated `timestampMs`) and stamps it. Rejects like {@link stamp}, or when `change` is malformed.
   */
  stampContactChange(input: { change: ContactChange; timestampMs: number }): Promise<StampedCall>
  /** Builds and stamps the removal of the e-mail or phone likewise (docs/signer.md#contact-removal). */
  stampContactRemoval(input: { removal: ContactRemoval; timestampMs: number }): Promise<StampedCall>
  /**
   * Builds a change of a way in (`call`, a `reauth` row of the signer-call table) with its step-up
   * proof where the session key is, and stamps it (docs/signer.md#step-up): the page never gets a
   * stamp for one. Rejects like {@link stamp}, or when the change is malformed.
   */
  stampAccessChange(input: {
    call: AccessChangeCallName
    parameters: Record<string, unknown>
    stepUp: StepUpProof
    timestampMs: number
  }): Promise<StampedCall>
  /** Forgets the embedded and session keys (RESET_EMBEDDED_KEY). */
  reset(): Promise<void>
}
