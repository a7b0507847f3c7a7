import { isAddress } from 'viem'
import type { DraftFieldName, LinkDraft } from './link-modal-state'

export const aliasMinLength = 3
export const aliasMaxLength = 64
export const receiverMinLength = 6
export const messageMaxLength = 280

export type DraftProblems = Partial<Record<DraftFieldName, string>>

/**
 * The details form's rules (SPEC §5 "Links", §9 minimums): alias at least 3 characters after
 * trimming (the only rule when editing); for creation also a receiver of at least 6 characters that
 * is a valid EVM address, a chain name with a numeric chain id, and a token. Returns one message per
 * failing field; an empty object means the draft can be saved.
 */
export function validateLinkDraft(draft: LinkDraft, isEditing: boolean): DraftProblems {
  const problems: DraftProblems = {}
  const alias = draft.alias.trim()
  if (alias.length < aliasMinLength)
    problems.alias = `Payment page name must be at least ${aliasMinLength} characters.`
  else if (alias.length > aliasMaxLength)
    problems.alias = `Payment page name must be at most ${aliasMaxLength} characters.`
  if (draft.message.length > messageMaxLength)
    problems.message = `Message must be at most ${messageMaxLength} characters.`
  if (isEditing) return problems

  const receiver = draft.receiver_address.trim()
  if (receiver.length < receiverMinLength) {
    problems.receiver_address = `Wallet address must be at least ${receiverMinLength} characters.`
  } else if (!isAddress(receiver, { strict: false })) {
    problems.receiver_address = 'Enter a valid wallet address: 0x followed by 40 hexadecimal characters.'
  }
  if (draft.chain.length === 0 || draft.chain_id === null || !Number.isFinite(draft.chain_id)) {
    problems.chain = 'Choose a receive chain.'
  }
  if (draft.token_name.length === 0 || draft.token_address.length === 0)
    problems.token = 'Choose a receive token.'
  return problems
}
