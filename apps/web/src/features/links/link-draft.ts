/**
 * What the link manager's details form edits (docs/product.md#link-manager), and a new draft's
 * defaults; the modal's state machine (link-modal-state.ts) holds one.
 */

/** What the details form edits. `alias_slug` is set only when the payee takes a suggested slug. */
export type LinkDraft = {
  link_type: string
  alias: string
  alias_slug: string | null
  receiver_address: string
  chain: string
  chain_id: number | null
  token_name: string
  token_address: string
  message: string
  /** A fixed amount in the link's token, as typed; empty lets the payer choose. */
  amount: string
  enabled: boolean
  favorite: boolean
  /** The owner's e-mail on each verified payment (docs/api.md#notices); on by default. */
  notify_payments: boolean
  /** One per draft, so a double submit or a retry never creates a second link. */
  idempotency_key: string
}

/** A server error shown next to the field it names, or above the buttons when it names none. */
export type DraftFieldName = 'alias' | 'receiver_address' | 'chain' | 'token' | 'message' | 'amount'
export type DraftError = { field: DraftFieldName | null; message: string; suggestion?: string }

/** The defaults: 'Payment Link' on base (8453) (docs/product.md#links). */
export function createEmptyDraft(idempotencyKey: string): LinkDraft {
  return {
    link_type: 'Payment Link',
    alias: '',
    alias_slug: null,
    receiver_address: '',
    chain: 'base',
    chain_id: 8453,
    token_name: '',
    token_address: '',
    message: '',
    amount: '',
    enabled: true,
    favorite: false,
    notify_payments: true,
    idempotency_key: idempotencyKey,
  }
}
