import { decimalAmountSchema } from '@quicklinks/core/api/invoices'
import {
  aliasMaxLength,
  aliasMinLength,
  linkFormSchema,
  maxMessageLength,
  receiverMinLength,
  updateLinkRequestSchema,
} from '@quicklinks/core/api/links'
import * as z from 'zod/mini'
import type { DraftFieldName, LinkDraft } from './link-modal-state'

export type DraftProblems = Partial<Record<DraftFieldName, string>>

/** The form field that shows a problem with each request field; others are not on the form. */
const draftFieldOf: Readonly<Record<string, DraftFieldName>> = {
  alias: 'alias',
  alias_slug: 'alias',
  receiver_address: 'receiver_address',
  chain: 'chain',
  chain_id: 'chain',
  token_name: 'token',
  token_address: 'token',
  message: 'message',
  amount: 'amount',
}

/** The sentence the form shows for a field's first problem (docs/product.md#link-validation). */
function describeProblem(field: DraftFieldName, issue: z.core.$ZodIssue): string {
  switch (field) {
    case 'alias':
      if (issue.code === 'too_small')
        return `Payment page name must be at least ${aliasMinLength} characters.`
      if (issue.code === 'too_big') return `Payment page name must be at most ${aliasMaxLength} characters.`
      return `Payment page name ${issue.message}.`
    case 'message':
      if (issue.code === 'too_big') return `Message must be at most ${maxMessageLength} characters.`
      return `Message ${issue.message}.`
    case 'receiver_address':
      if (issue.code === 'too_small')
        return `Wallet address must be at least ${receiverMinLength} characters.`
      return 'Enter a valid wallet address: 0x followed by 40 hexadecimal characters.'
    case 'chain':
      return 'Choose a receive chain.'
    case 'token':
      return 'Choose a receive token.'
    case 'amount':
      return `Amount ${issue.message}, or leave it empty.`
    default: {
      const unknownField: never = field
      return unknownField
    }
  }
}

/**
 * The details form's rules (docs/product.md#link-validation), checked with the API's own schemas:
 * a create with `linkFormSchema` (the create request's rules, a receiver of at least 6 characters
 * that is a valid EVM address, a chosen chain and token), an edit with `updateLinkRequestSchema`
 * (the name and the message). Returns the form's message for each failing field; an empty object
 * means the draft can be saved.
 */
export function validateLinkDraft(draft: LinkDraft, isEditing: boolean): DraftProblems {
  const parsed = isEditing
    ? updateLinkRequestSchema.safeParse({ alias: draft.alias, message: draft.message })
    : linkFormSchema.safeParse({
        alias: draft.alias,
        receiver_address: draft.receiver_address,
        chain: draft.chain,
        chain_id: draft.chain_id ?? undefined,
        token_name: draft.token_name,
        token_address: draft.token_address,
        message: draft.message,
      })
  const problems: DraftProblems = {}
  // The amount is optional; when given it must be what the API takes (decimalAmountSchema).
  const amount = draft.amount.trim()
  const amountCheck = amount === '' ? null : z.safeParse(decimalAmountSchema, amount)
  const amountIssue = amountCheck?.success === false ? amountCheck.error.issues[0] : undefined
  if (amountIssue !== undefined) problems.amount = describeProblem('amount', amountIssue)
  if (parsed.success) return problems
  for (const issue of parsed.error.issues) {
    const field = draftFieldOf[String(issue.path[0])]
    if (field === undefined || problems[field] !== undefined) continue
    problems[field] = describeProblem(field, issue)
  }
  return problems
}
