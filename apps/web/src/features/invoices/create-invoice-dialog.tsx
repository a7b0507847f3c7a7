import type { Invoice } from '@quicklinks/core/api/invoices'
import { invoiceMaxMemoLength, invoiceMaxReferenceLength } from '@quicklinks/core/api/invoices'
import { AppError } from '@quicklinks/core/app-error'
import { useMutation } from '@tanstack/react-query'
import { Check, Copy, ExternalLink } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { Dialog } from '../../ui/dialog'
import { FormField } from '../../ui/form-field'
import { getInputClassName } from '../../ui/input-class-name'
import {
  createInvoiceFormValues,
  type InvoiceFormField,
  invoiceExpiryChoices,
  parseInvoiceForm,
} from './invoice-form'
import { createInvoice } from './invoices-api'

export type CreateInvoiceDialogProps = {
  link: { id: string; alias: string; token_name: string; amount: string | null }
  open: boolean
  onOpenChange: (open: boolean) => void
}

/**
 * 'Create invoice' on a link (docs/product.md#paying-an-invoice-or-an-amount-link): amount (the
 * link's own, when it has one), reference, memo, expiry and tolerance, checked with the API's
 * schema, then POST /api/links/{id}/invoices; the new invoice's URL shows read-only with a copy button.
 */
export function CreateInvoiceDialog({ link, open, onOpenChange }: CreateInvoiceDialogProps) {
  const [created, setCreated] = useState<Invoice | null>(null)
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={created === null ? 'Create invoice' : 'Invoice created'}
      description={
        created === null
          ? `An amount in ${link.token_name} that ${link.alias} asks for, paid from any token on any chain.`
          : 'Send this address to the payer. It shows the amount due and its state.'
      }
    >
      {created === null ? (
        <InvoiceForm link={link} onCreated={setCreated} onCancel={() => onOpenChange(false)} />
      ) : (
        <CreatedInvoice
          invoice={created}
          onAnother={() => setCreated(null)}
          onDone={() => onOpenChange(false)}
        />
      )}
    </Dialog>
  )
}

function InvoiceForm({
  link,
  onCreated,
  onCancel,
}: {
  link: CreateInvoiceDialogProps['link']
  onCreated: (invoice: Invoice) => void
  onCancel: () => void
}) {
  const [values, setValues] = useState(() => createInvoiceFormValues(link.amount))
  const [isSubmitted, setSubmitted] = useState(false)
  const mutation = useMutation({
    mutationFn: (request: Parameters<typeof createInvoice>[1]) => createInvoice(link.id, request),
    onSuccess: onCreated,
  })
  const parsed = parseInvoiceForm(values)
  const problems = 'problems' in parsed ? parsed.problems : {}
  const serverField = mutation.error instanceof AppError ? mutation.error.field : undefined
  const shown = (field: InvoiceFormField) =>
    (isSubmitted ? problems[field] : undefined) ??
    (serverField === field || (field === 'tolerancePercent' && serverField === 'toleranceBps')
      ? (mutation.error as AppError).userMessage
      : undefined)
  const set = (field: keyof typeof values) => (value: string) => {
    mutation.reset()
    setValues((current) => ({ ...current, [field]: field === 'expiresInSeconds' ? Number(value) : value }))
  }
  const ids = { amount: useId(), reference: useId(), memo: useId(), expires: useId(), tolerance: useId() }
  const serverProblem =
    mutation.error !== null && (serverField === undefined || serverField === null)
      ? mutation.error instanceof AppError
        ? mutation.error.userMessage
        : 'Failed to create invoice'
      : null
  const inputClass = (field: InvoiceFormField) => getInputClassName(shown(field) !== undefined)
  return (
    <form
      noValidate
      className="mt-5 grid gap-3"
      onSubmit={(event) => {
        event.preventDefault()
        setSubmitted(true)
        if ('request' in parsed && !mutation.isPending) mutation.mutate(parsed.request)
      }}
    >
      <FormField id={ids.amount} label={`Amount (${link.token_name})`} error={shown('amount')}>
        <input
          id={ids.amount}
          inputMode="decimal"
          autoComplete="off"
          placeholder="12.50"
          className={inputClass('amount')}
          value={values.amount}
          aria-invalid={shown('amount') === undefined ? undefined : true}
          aria-describedby={`${ids.amount}-message`}
          onChange={(event) => set('amount')(event.target.value)}
        />
      </FormField>
      <FormField
        id={ids.reference}
        label="Reference (optional)"
        error={shown('reference')}
        help="Only you see it."
      >
        <input
          id={ids.reference}
          autoComplete="off"
          placeholder="Order #1042"
          maxLength={invoiceMaxReferenceLength}
          className={inputClass('reference')}
          value={values.reference}
          aria-describedby={`${ids.reference}-message`}
          onChange={(event) => set('reference')(event.target.value)}
        />
      </FormField>
      <FormField id={ids.memo} label="Memo (optional)" error={shown('memo')} help="Shown to the payer.">
        <textarea
          id={ids.memo}
          rows={2}
          maxLength={invoiceMaxMemoLength}
          className={classNames(inputClass('memo'), 'min-h-16 py-2.5')}
          value={values.memo}
          aria-describedby={`${ids.memo}-message`}
          onChange={(event) => set('memo')(event.target.value)}
        />
      </FormField>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField id={ids.expires} label="Expires in">
          <select
            id={ids.expires}
            className={getInputClassName(false)}
            value={values.expiresInSeconds}
            onChange={(event) => set('expiresInSeconds')(event.target.value)}
          >
            {invoiceExpiryChoices.map((choice) => (
              <option key={choice.seconds} value={choice.seconds}>
                {choice.label}
              </option>
            ))}
          </select>
        </FormField>
        <FormField
          id={ids.tolerance}
          label="Tolerance (%)"
          error={shown('tolerancePercent')}
          help="A payment this much short still counts as paid."
        >
          <input
            id={ids.tolerance}
            inputMode="decimal"
            autoComplete="off"
            placeholder="0"
            className={inputClass('tolerancePercent')}
            value={values.tolerancePercent}
            aria-invalid={shown('tolerancePercent') === undefined ? undefined : true}
            aria-describedby={`${ids.tolerance}-message`}
            onChange={(event) => set('tolerancePercent')(event.target.value)}
          />
        </FormField>
      </div>
      {serverProblem === null ? null : (
        <p role="alert" className="text-danger text-sm">
          {serverProblem}
        </p>
      )}
      <div className="mt-3 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={mutation.isPending} disabled={mutation.isPending}>
          {mutation.isPending ? 'Creating…' : 'Create invoice'}
        </Button>
      </div>
    </form>
  )
}

function CreatedInvoice({
  invoice,
  onAnother,
  onDone,
}: {
  invoice: Invoice
  onAnother: () => void
  onDone: () => void
}) {
  const fieldId = useId()
  const [isCopied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invoice.url)
      setCopied(true)
      setTimeout(() => setCopied(false), 2000)
    } catch {
      // A clipboard failure is silent: the address stays selectable.
    }
  }
  return (
    <div className="mt-5 grid gap-4">
      <p className="font-semibold text-2xl tabular-nums">
        {invoice.amount} {invoice.token.symbol}
      </p>
      <div>
        <label htmlFor={fieldId} className="font-medium text-sm">
          Invoice link
        </label>
        <div className="mt-1.5 flex items-center gap-2">
          <input
            id={fieldId}
            readOnly
            value={invoice.url}
            onFocus={(event) => event.currentTarget.select()}
            className="min-h-11 min-w-0 flex-1 rounded-control border border-border bg-subtle px-3 font-mono text-[13px]"
          />
          <Button variant="secondary" size="icon" aria-label="Copy invoice link" onClick={() => void copy()}>
            {isCopied ? <Check aria-hidden="true" className="text-success" /> : <Copy aria-hidden="true" />}
          </Button>
        </div>
        <span aria-live="polite" className="sr-only">
          {isCopied ? 'Invoice link copied' : ''}
        </span>
      </div>
      <p className="text-muted text-sm">Expires {new Date(invoice.expiresAt).toLocaleString()}.</p>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onAnother}>
          Create another
        </Button>
        <Button asChild variant="secondary">
          <a href={invoice.url} target="_blank" rel="noopener noreferrer">
            <ExternalLink aria-hidden="true" />
            Open invoice
          </a>
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  )
}
