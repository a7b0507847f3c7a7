import type { Dispatch, RefObject } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { DialogClose, DialogDescription, DialogTitle } from '../../ui/dialog'
import { FormField } from '../../ui/form-field'
import { getInputClassName } from '../../ui/input-class-name'
import { formatTokenAmount } from '../pay/pay-amount'
import {
  type SendDialogAction,
  type SendDialogChain,
  type SendDialogToken,
  tokenKey,
} from './send-dialog-state'
import type { SendForm, SendFormProblems } from './validate-send'

export type SendFormStepProps = {
  ids: { token: string; amount: string; recipient: string }
  chains: SendDialogChain[]
  selectedKey: string
  /** The chosen token and its chain; undefined when the wallet has no token. */
  selected: { chain: SendDialogChain; token: SendDialogToken } | undefined
  form: SendForm
  /** The problems to show now (of touched fields only). */
  errors: SendFormProblems
  isSponsored: boolean
  /** Why the last send failed, shown under the form; null when none did. */
  failureMessage: string | null
  amountRef: RefObject<HTMLInputElement | null>
  recipientRef: RefObject<HTMLInputElement | null>
  /** Focused when a failure shows. */
  resultRef: RefObject<HTMLDivElement | null>
  dispatch: Dispatch<SendDialogAction>
  onSubmit: () => void
}

/** 'Send': the token (with its balance), the amount and the address, and who pays the gas. */
export function SendFormStep(props: SendFormStepProps) {
  const { ids, selected, errors, dispatch } = props
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        props.onSubmit()
      }}
    >
      <DialogTitle>Send</DialogTitle>
      <DialogDescription>Send tokens from your wallet to another address.</DialogDescription>
      <div className="mt-5 grid gap-4">
        <FormField
          id={ids.token}
          label="Token"
          help={selected === undefined ? 'No tokens on this wallet’s chains.' : balanceHelp(selected.token)}
        >
          <select
            id={ids.token}
            className={getInputClassName(false)}
            value={props.selectedKey}
            aria-describedby={`${ids.token}-message`}
            onChange={(event) => dispatch({ type: 'selectToken', key: event.target.value })}
          >
            {props.chains.map((chain) => (
              <optgroup key={chain.chainId} label={chain.name}>
                {chain.tokens.map((token) => (
                  <option key={token.address} value={tokenKey(chain.chainId, token.address)}>
                    {token.symbol} on {chain.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </FormField>
        <FormField id={ids.amount} label="Amount" error={errors.amount}>
          <div className="relative">
            <input
              id={ids.amount}
              ref={props.amountRef}
              className={classNames(getInputClassName(errors.amount !== undefined), 'pr-16 tabular-nums')}
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              value={props.form.amount}
              aria-invalid={errors.amount !== undefined}
              aria-describedby={`${ids.amount}-message`}
              onChange={(event) => dispatch({ type: 'edit', field: 'amount', value: event.target.value })}
              onBlur={() => dispatch({ type: 'leave', field: 'amount' })}
            />
            <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-muted text-sm">
              {selected?.token.symbol ?? ''}
            </span>
          </div>
        </FormField>
        <FormField id={ids.recipient} label="To address" error={errors.recipient}>
          <input
            id={ids.recipient}
            ref={props.recipientRef}
            className={classNames(getInputClassName(errors.recipient !== undefined), 'font-mono')}
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            value={props.form.recipient}
            aria-invalid={errors.recipient !== undefined}
            aria-describedby={`${ids.recipient}-message`}
            onChange={(event) => dispatch({ type: 'edit', field: 'recipient', value: event.target.value })}
            onBlur={() => dispatch({ type: 'leave', field: 'recipient' })}
          />
        </FormField>
        <p className="text-muted text-sm">
          {props.isSponsored
            ? 'Gas is sponsored: you pay nothing extra.'
            : `Gas is paid from this account in ${selected?.chain.nativeSymbol ?? 'the native token'}.`}
        </p>
        {props.failureMessage === null ? null : (
          <p ref={props.resultRef} tabIndex={-1} role="alert" className="text-danger text-sm outline-none">
            {props.failureMessage}
          </p>
        )}
      </div>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <DialogClose>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={selected === undefined}>
          Send
        </Button>
      </div>
    </form>
  )
}

function balanceHelp(token: SendDialogToken): string {
  return token.balance === null
    ? 'Balance: loading…'
    : `Balance: ${formatTokenAmount(token.balance, token.decimals)} ${token.symbol}`
}
