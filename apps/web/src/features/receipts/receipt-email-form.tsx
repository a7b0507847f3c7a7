import { receiptEmailRequestSchema } from '@quicklinks/core/api/receipts'
import { AppError } from '@quicklinks/core/app-error'
import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Button } from '../../ui/button'
import { FormField } from '../../ui/form-field'
import { getInputClassName } from '../../ui/input-class-name'
import { sendReceiptEmail } from './receipts-api'

/**
 * 'E-mail me a receipt': one copy of this receipt to an address the payer types. The server sends a
 * fixed text, once per address, to at most 3 addresses per payment (docs/api.md#receipt-emails).
 */
export function ReceiptEmailForm({ intentId }: { intentId: string }) {
  const [email, setEmail] = useState('')
  const [fieldError, setFieldError] = useState<string | undefined>(undefined)
  const mutation = useMutation({ mutationFn: (address: string) => sendReceiptEmail(intentId, address) })

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = receiptEmailRequestSchema.safeParse({ email })
    if (!parsed.success) {
      setFieldError('Enter an e-mail address.')
      return
    }
    setFieldError(undefined)
    mutation.mutate(parsed.data.email)
  }

  const serverError =
    mutation.error instanceof AppError
      ? mutation.error.userMessage
      : mutation.error
        ? 'Could not send the receipt.'
        : undefined

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-2">
      <FormField id="receipt-email" label="E-mail me a receipt" error={fieldError ?? serverError}>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id="receipt-email"
            type="email"
            autoComplete="email"
            inputMode="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={fieldError !== undefined || serverError !== undefined}
            aria-describedby="receipt-email-message"
            className={getInputClassName(fieldError !== undefined || serverError !== undefined)}
            placeholder="you@example.com"
          />
          <Button type="submit" variant="secondary" isBusy={mutation.isPending}>
            Send
          </Button>
        </div>
      </FormField>
      <p role="status" className="text-sm text-success">
        {mutation.isSuccess ? 'Sent. Check your inbox in a minute.' : ''}
      </p>
    </form>
  )
}
