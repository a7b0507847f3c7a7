import type { SignerContactChannel } from '../../db/signer-schema.ts'

/**
 * An e-mail address or phone number, normalised (by the signer-call table's emailSchema and
 * phoneSchema, @quicklinks/protocol/signer-field-schemas): the key accounts, codes and limits use.
 */
export type Contact = { channel: SignerContactChannel; address: string }
