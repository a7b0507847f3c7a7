import { useId } from 'react'
import { FormField } from '../../ui/form-field'

export type LinkAmountFieldProps = {
  value: string
  /** The link's token symbol, when chosen. */
  tokenName: string
  error: string | undefined
  onChange: (value: string) => void
  onBlur: () => void
  /** The details page's input look (red when invalid). */
  inputClassName: string
}

/**
 * The link form's optional Amount (docs/product.md#paying-an-invoice-or-an-amount-link): a decimal
 * in the link's token that the pay modal then locks; empty lets the payer choose.
 */
export function LinkAmountField(props: LinkAmountFieldProps) {
  const id = useId()
  return (
    <FormField
      id={id}
      label={props.tokenName.length > 0 ? `Amount (${props.tokenName}, optional)` : 'Amount (optional)'}
      error={props.error}
      help="Leave empty to let the payer choose. With an amount, the payer pays at least this much."
    >
      <input
        id={id}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        className={props.inputClassName}
        placeholder="12.50"
        value={props.value}
        aria-invalid={props.error === undefined ? undefined : true}
        aria-describedby={`${id}-message`}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
      />
    </FormField>
  )
}
