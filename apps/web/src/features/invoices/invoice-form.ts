import {
  type CreateInvoiceRequest,
  createInvoiceRequestSchema,
  invoiceDefaultExpiresInSeconds,
} from '@quicklinks/core/api/invoices'
import * as z from 'zod/mini'

/** The create-invoice dialog's fields, as typed. */
export type InvoiceFormValues = {
  amount: string
  reference: string
  memo: string
  /** Seconds, one of `invoiceExpiryChoices`. */
  expiresInSeconds: number
  /** Percent, as typed ('' is 0). */
  tolerancePercent: string
}

/** The expiry choices the dialog offers (1 minute to 30 days is what the API takes). */
export const invoiceExpiryChoices = [
  { seconds: 15 * 60, label: '15 minutes' },
  { seconds: invoiceDefaultExpiresInSeconds, label: '1 hour' },
  { seconds: 24 * 60 * 60, label: '24 hours' },
  { seconds: 7 * 24 * 60 * 60, label: '7 days' },
  { seconds: 30 * 24 * 60 * 60, label: '30 days' },
] as const

/** A new form: the link's amount when it has one, expiring in an hour, no tolerance. */
export function createInvoiceFormValues(linkAmount: string | null): InvoiceFormValues {
  return {
    amount: linkAmount ?? '',
    reference: '',
    memo: '',
    expiresInSeconds: invoiceDefaultExpiresInSeconds,
    tolerancePercent: '',
  }
}

export type InvoiceFormField = 'amount' | 'reference' | 'memo' | 'tolerancePercent'

/**
 * The request the form makes, checked with the API's own schema (createInvoiceRequestSchema), or
 * each field's first problem as a sentence. The tolerance is typed in percent (0 to 100, two
 * decimals) and sent in basis points.
 */
export function parseInvoiceForm(
  values: InvoiceFormValues,
): { request: CreateInvoiceRequest } | { problems: Partial<Record<InvoiceFormField, string>> } {
  const problems: Partial<Record<InvoiceFormField, string>> = {}
  const percentText = values.tolerancePercent.trim()
  const percent = percentText === '' ? 0 : Number(percentText)
  if (!/^\d{0,3}(?:\.\d{0,2})?$/.test(percentText) || !(percent >= 0 && percent <= 100)) {
    problems.tolerancePercent = 'Tolerance must be a percentage from 0 to 100 (at most two decimals).'
  }
  const request = {
    amount: values.amount.trim(),
    reference: values.reference.trim() === '' ? null : values.reference,
    memo: values.memo.trim() === '' ? null : values.memo,
    expiresInSeconds: values.expiresInSeconds,
    toleranceBps: Math.round(percent * 100),
  }
  const parsed = z.safeParse(createInvoiceRequestSchema, request)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0])
      if (field === 'amount' && problems.amount === undefined) problems.amount = `Amount ${issue.message}.`
      if (field === 'reference' && problems.reference === undefined)
        problems.reference = `Reference ${issue.message}.`
      if (field === 'memo' && problems.memo === undefined) problems.memo = `Memo ${issue.message}.`
    }
  }
  if (Object.keys(problems).length > 0) return { problems }
  return { request }
}
