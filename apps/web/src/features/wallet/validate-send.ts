import { type Address, getAddress, isAddress } from 'viem'
import { parseScaledDecimal, validateAmount } from '../pay/pay-amount'

/** What the Send form holds, as typed. */
export type SendForm = { amount: string; recipient: string }

/** The token being sent: its decimals, symbol and the account's balance of it (null while unknown). */
export type SendFormToken = { symbol: string; decimals: number; balance: bigint | null }

export type SendFormProblems = Partial<Record<keyof SendForm, string>>

/** A valid form, ready to send. */
export type ValidSend = { amount: bigint; recipient: Address }

const decimalPattern = /^\d*(?:\.(\d*))?$/

/**
 * The amount checks: a plain decimal number (no more fraction digits than the token has: nothing
 * typed is silently cut), above zero, and at most the balance (the pay modal's wording,
 * docs/product.md#amounts).
 */
export function validateSendAmount(text: string, token: SendFormToken): string | null {
  const trimmed = text.trim()
  if (trimmed.length === 0) return 'Enter an amount.'
  const match = decimalPattern.exec(trimmed)
  if (match === null) return 'Enter a valid amount.'
  if ((match[1] ?? '').length > token.decimals) {
    return `${token.symbol} has at most ${token.decimals} decimals.`
  }
  return validateAmount(parseScaledDecimal(trimmed, token.decimals), token.balance)
}

/**
 * The recipient checks: not empty, a 20-byte hex address, a correct EIP-55 checksum when it is
 * written in mixed case, and not the sending account itself.
 */
export function validateRecipient(text: string, sender: string): string | null {
  const trimmed = text.trim()
  if (trimmed.length === 0) return 'Enter the address to send to.'
  if (!isAddress(trimmed, { strict: false }))
    return 'Enter a valid address: 0x followed by 40 hex characters.'
  if (!isAddress(trimmed, { strict: true })) {
    return 'This address has a wrong checksum. Copy it again from its owner.'
  }
  if (trimmed.toLowerCase() === sender.toLowerCase()) return 'This is this wallet’s own address.'
  return null
}

/** Every problem of the form (empty when it can be sent). */
export function validateSendForm(form: SendForm, token: SendFormToken, sender: string): SendFormProblems {
  const problems: SendFormProblems = {}
  const amount = validateSendAmount(form.amount, token)
  if (amount !== null) problems.amount = amount
  const recipient = validateRecipient(form.recipient, sender)
  if (recipient !== null) problems.recipient = recipient
  return problems
}

/** The form as values to send, or null when it has a problem (or the balance is still unknown). */
export function toValidSend(form: SendForm, token: SendFormToken, sender: string): ValidSend | null {
  if (token.balance === null) return null
  if (Object.keys(validateSendForm(form, token, sender)).length > 0) return null
  const amount = parseScaledDecimal(form.amount.trim(), token.decimals)
  if (amount === undefined) return null
  return { amount, recipient: getAddress(form.recipient.trim()) }
}
