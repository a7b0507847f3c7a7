import { paymentStates } from '@quicklinks/core/api/payments'
import { getInputClassName } from '../../ui/input-class-name'
import type { Link } from '../links/link'
import { paymentStateLabels } from './payment-item'
import type { PaymentFilters } from './payments-api'

/** The Payments tab's filters: link, state and a date range, each a labelled control. */
export function PaymentFiltersBar({
  filters,
  links,
  onChange,
}: {
  filters: PaymentFilters
  links: Link[]
  onChange: (next: PaymentFilters) => void
}) {
  const inputClassName = getInputClassName(false)
  return (
    <fieldset className="mt-6 grid grid-cols-2 gap-3 md:grid-cols-4">
      <legend className="sr-only">Filter payments</legend>
      <label className="grid gap-1.5 font-medium text-sm">
        Link
        <select
          className={inputClassName}
          value={filters.linkId ?? ''}
          onChange={(event) => onChange({ ...filters, linkId: event.target.value || undefined })}
        >
          <option value="">All links</option>
          {links.map((link) => (
            <option key={link.id} value={link.id}>
              {link.alias}
            </option>
          ))}
        </select>
      </label>
      <label className="grid gap-1.5 font-medium text-sm">
        State
        <select
          className={inputClassName}
          value={filters.state ?? ''}
          onChange={(event) => onChange({ ...filters, state: event.target.value || undefined })}
        >
          <option value="">All states</option>
          {paymentStates.map((state) => (
            <option key={state} value={state}>
              {paymentStateLabels[state]}
            </option>
          ))}
        </select>
      </label>
      <label className="grid gap-1.5 font-medium text-sm">
        From
        <input
          type="date"
          className={inputClassName}
          value={filters.from ?? ''}
          onChange={(event) => onChange({ ...filters, from: event.target.value || undefined })}
        />
      </label>
      <label className="grid gap-1.5 font-medium text-sm">
        To
        <input
          type="date"
          className={inputClassName}
          value={filters.to ?? ''}
          onChange={(event) => onChange({ ...filters, to: event.target.value || undefined })}
        />
      </label>
    </fieldset>
  )
}
