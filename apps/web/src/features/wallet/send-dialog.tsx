import { isNativeTokenAddress } from '@quicklinks/core/native-token-address'
import type {
  SmartSendInput,
  SmartSendProgress,
  SmartSendResult,
  SponsorRefusalReason,
} from '@quicklinks/wallet/smart-accounts/smart-wallet-types'
import { CheckCircle2, Circle, ExternalLink } from 'lucide-react'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { type Address, encodeFunctionData, erc20Abi, type Hex } from 'viem'
import { maskMiddle } from '../../lib/format'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { Dialog, DialogClose, DialogDescription, DialogTitle } from '../../ui/dialog'
import { FormField } from '../../ui/form-field'
import { getInputClassName } from '../../ui/input-class-name'
import { Spinner } from '../../ui/spinner'
import { formatTokenAmount } from '../pay/pay-amount'
import { describeSendError } from './describe-send-error'
import { type SendForm, toValidSend, validateSendForm } from './validate-send'

/** A token the account can send, with its balance there (null while unknown). */
export type SendDialogToken = { address: string; symbol: string; decimals: number; balance: bigint | null }

/** A chain the account can send on. */
export type SendDialogChain = {
  chainId: number
  name: string
  /** The sponsor service pays gas here (under the default policy). */
  sponsored: boolean
  nativeSymbol: string
  tokens: SendDialogToken[]
}

export type SendDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The smart account sending. */
  sender: Address
  chains: SendDialogChain[]
  /** The sponsor policy a send asks for; null: the account pays the gas. */
  defaultPolicyId: string | null
  send: (input: SmartSendInput) => Promise<SmartSendResult>
  getTransactionUrl: (chainId: number, hash: Hex) => string | null
  /** After an included send: refresh the balances (the dialog then shows the new one). */
  onSent: (chainId: number) => Promise<void>
}

type SendStep = SmartSendProgress['step']

type Phase =
  | { name: 'form' }
  | { name: 'sending'; sponsored: boolean; step: SendStep }
  | { name: 'sent'; result: SmartSendResult; amount: bigint; recipient: Address; isRefreshing: boolean }
  | { name: 'refused'; reason: SponsorRefusalReason; message: string }
  | { name: 'failed'; message: string }

const stepLabels: Record<SendStep, string> = {
  preparing: 'Preparing the transfer',
  sponsoring: 'Getting the gas sponsored',
  signing: 'Signing with your wallet',
  submitted: 'Submitted to the network',
  included: 'Included in a block',
}

const tokenKey = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`

/** The calls that move `amount` of a token: a plain value transfer for the native token, else ERC-20 transfer. */
function toTransferCall(token: SendDialogToken, recipient: Address, amount: bigint) {
  if (isNativeTokenAddress(token.address)) return { to: recipient, value: amount }
  return {
    to: token.address as Address,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] }),
  }
}

/**
 * Send from the smart account (Settings → Wallet, docs/product.md#smart-wallet): a token of one
 * of its chains, an amount and an address, checked before anything is signed; sent as one user
 * operation, sponsored under the default policy where the chain has a sponsor, with its progress,
 * the explorer link and the new balance. A sponsor refusal says why and offers to pay the gas
 * from the account instead.
 */
export function SendDialog(props: SendDialogProps) {
  // While an operation is on its way the dialog stays open (Escape, the overlay and the X do
  // nothing), so its outcome is always shown.
  const [isSending, setIsSending] = useState(false)
  return (
    <Dialog
      open={props.open}
      onOpenChange={(open) => {
        if (open || !isSending) props.onOpenChange(open)
      }}
    >
      {props.open ? <SendBody {...props} onSendingChange={setIsSending} /> : null}
    </Dialog>
  )
}

function SendBody({
  sender,
  chains,
  defaultPolicyId,
  send,
  getTransactionUrl,
  onSent,
  onOpenChange,
  onSendingChange,
}: SendDialogProps & { onSendingChange: (isSending: boolean) => void }) {
  const ids = { token: useId(), amount: useId(), recipient: useId(), status: useId() }
  const options = useMemo(
    () => chains.flatMap((chain) => chain.tokens.map((token) => ({ chain, token }))),
    [chains],
  )
  const [selectedKey, setSelectedKey] = useState(() => {
    const funded = options.find(({ token }) => token.balance !== null && token.balance > 0n) ?? options[0]
    return funded === undefined ? '' : tokenKey(funded.chain.chainId, funded.token.address)
  })
  const [form, setForm] = useState<SendForm>({ amount: '', recipient: '' })
  const [touched, setTouched] = useState<Partial<Record<keyof SendForm, boolean>>>({})
  const [phase, setPhase] = useState<Phase>({ name: 'form' })
  const amountRef = useRef<HTMLInputElement>(null)
  const recipientRef = useRef<HTMLInputElement>(null)
  const resultRef = useRef<HTMLDivElement>(null)

  const selected = options.find(
    (option) => tokenKey(option.chain.chainId, option.token.address) === selectedKey,
  )
  const problems = selected === undefined ? {} : validateSendForm(form, selected.token, sender)
  const shown = (field: keyof SendForm) => (touched[field] === true ? problems[field] : undefined)
  const nativeBalance =
    selected?.chain.tokens.find((token) => isNativeTokenAddress(token.address))?.balance ?? null
  const isSponsored = selected?.chain.sponsored === true && defaultPolicyId !== null

  useEffect(() => {
    onSendingChange(phase.name === 'sending')
  }, [phase.name, onSendingChange])

  useEffect(() => {
    if (phase.name === 'sent' || phase.name === 'refused' || phase.name === 'failed')
      resultRef.current?.focus()
  }, [phase.name])

  const run = async (withPolicy: boolean) => {
    if (selected === undefined) return
    const valid = toValidSend(form, selected.token, sender)
    if (valid === null) return
    const sponsored = withPolicy && isSponsored && defaultPolicyId !== null
    setPhase({ name: 'sending', sponsored, step: 'preparing' })
    try {
      const result = await send({
        chainId: selected.chain.chainId,
        calls: [toTransferCall(selected.token, valid.recipient, valid.amount)],
        ...(sponsored && defaultPolicyId !== null ? { policyId: defaultPolicyId } : {}),
        onProgress: (progress) => setPhase({ name: 'sending', sponsored, step: progress.step }),
      })
      if (!result.success) {
        setPhase({ name: 'failed', message: 'The transfer was included but reverted: nothing was sent.' })
        return
      }
      setPhase({ name: 'sent', result, amount: valid.amount, recipient: valid.recipient, isRefreshing: true })
      await onSent(selected.chain.chainId).catch(() => undefined)
      setPhase((current) => (current.name === 'sent' ? { ...current, isRefreshing: false } : current))
    } catch (error) {
      const failure = describeSendError(error)
      setPhase(
        failure.kind === 'refused'
          ? { name: 'refused', reason: failure.reason, message: failure.message }
          : { name: 'failed', message: failure.message },
      )
    }
  }

  const submit = () => {
    setTouched({ amount: true, recipient: true })
    if (problems.amount !== undefined) {
      amountRef.current?.focus()
      return
    }
    if (problems.recipient !== undefined) {
      recipientRef.current?.focus()
      return
    }
    void run(true)
  }

  if (phase.name === 'sending') {
    const steps: SendStep[] = phase.sponsored
      ? ['preparing', 'sponsoring', 'signing', 'submitted', 'included']
      : ['preparing', 'signing', 'submitted', 'included']
    const currentIndex = steps.indexOf(phase.step)
    return (
      <div>
        <DialogTitle>Sending</DialogTitle>
        <DialogDescription>Keep this window open until the transfer is included.</DialogDescription>
        <ol aria-label="Progress" className="mt-5 grid gap-3 text-sm">
          {steps.map((step, index) => {
            const state = index < currentIndex ? 'done' : index === currentIndex ? 'current' : 'pending'
            return (
              <li key={step} className="flex min-h-6 items-center gap-2">
                {state === 'done' ? (
                  <CheckCircle2 aria-hidden="true" className="size-5 shrink-0 text-success" />
                ) : state === 'current' ? (
                  <Spinner className="size-5 shrink-0 text-accent" />
                ) : (
                  <Circle aria-hidden="true" className="size-5 shrink-0 text-muted" />
                )}
                <span className={state === 'pending' ? 'text-muted' : 'font-medium'}>{stepLabels[step]}</span>
                <span className="sr-only">
                  {state === 'done' ? ' (done)' : state === 'current' ? ' (in progress)' : ' (waiting)'}
                </span>
              </li>
            )
          })}
        </ol>
        <p id={ids.status} aria-live="polite" className="sr-only">
          {stepLabels[phase.step]}
        </p>
      </div>
    )
  }

  if (phase.name === 'sent' && selected !== undefined) {
    const url = getTransactionUrl(selected.chain.chainId, phase.result.transactionHash)
    const { token, chain } = selected
    return (
      <div>
        <DialogTitle>Sent</DialogTitle>
        <DialogDescription>
          {formatTokenAmount(phase.amount, token.decimals)} {token.symbol} went to{' '}
          <span className="font-mono">{maskMiddle(phase.recipient)}</span> on {chain.name}.
        </DialogDescription>
        <div
          ref={resultRef}
          tabIndex={-1}
          className="mt-5 grid gap-3 rounded-control bg-subtle p-4 text-sm outline-none"
        >
          <p className="flex items-center gap-2 font-medium text-success" role="status">
            <CheckCircle2 aria-hidden="true" className="size-5" />
            Transfer included{phase.result.sponsored ? ' · gas sponsored' : ''}
          </p>
          <dl className="grid gap-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <dt className="text-muted">Transaction</dt>
              <dd className="font-mono">
                {url === null ? (
                  <span title={phase.result.transactionHash}>
                    {maskMiddle(phase.result.transactionHash, 6, 6)}
                  </span>
                ) : (
                  <a
                    href={url}
                    target="_blank"
                    rel="noopener noreferrer"
                    title={phase.result.transactionHash}
                    className="inline-flex min-h-11 items-center gap-1 text-accent underline-offset-2 hover:underline"
                  >
                    {maskMiddle(phase.result.transactionHash, 6, 6)}
                    <ExternalLink aria-hidden="true" className="size-3.5" />
                    <span className="sr-only"> (view in the explorer, opens in a new tab)</span>
                  </a>
                )}
              </dd>
            </div>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <dt className="text-muted">New balance</dt>
              <dd className="tabular-nums" aria-busy={phase.isRefreshing}>
                {phase.isRefreshing || token.balance === null
                  ? 'Updating…'
                  : `${formatTokenAmount(token.balance, token.decimals)} ${token.symbol}`}
              </dd>
            </div>
          </dl>
        </div>
        <div className="mt-6 flex justify-end">
          <Button onClick={() => onOpenChange(false)}>Done</Button>
        </div>
      </div>
    )
  }

  if (phase.name === 'refused' && selected !== undefined) {
    const hasGasMoney = nativeBalance !== null && nativeBalance > 0n
    return (
      <div>
        <DialogTitle>Gas not sponsored</DialogTitle>
        <DialogDescription>Nothing was sent.</DialogDescription>
        <div ref={resultRef} tabIndex={-1} className="mt-5 grid gap-2 text-sm outline-none">
          <p role="alert" className="font-medium text-danger">
            {phase.message}
          </p>
          <p className="text-muted">
            {hasGasMoney
              ? `You can pay the gas from this account in ${selected.chain.nativeSymbol} instead.`
              : `To pay the gas yourself, this account needs ${selected.chain.nativeSymbol} on ${selected.chain.name}.`}
          </p>
        </div>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setPhase({ name: 'form' })}>
            Back
          </Button>
          <Button disabled={!hasGasMoney} onClick={() => void run(false)}>
            Pay gas from this account
          </Button>
        </div>
      </div>
    )
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        submit()
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
            value={selectedKey}
            aria-describedby={`${ids.token}-message`}
            onChange={(event) => setSelectedKey(event.target.value)}
          >
            {chains.map((chain) => (
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
        <FormField id={ids.amount} label="Amount" error={shown('amount')}>
          <div className="relative">
            <input
              id={ids.amount}
              ref={amountRef}
              className={classNames(getInputClassName(shown('amount') !== undefined), 'pr-16 tabular-nums')}
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              value={form.amount}
              aria-invalid={shown('amount') !== undefined}
              aria-describedby={`${ids.amount}-message`}
              onChange={(event) => setForm((current) => ({ ...current, amount: event.target.value }))}
              onBlur={() => setTouched((current) => ({ ...current, amount: true }))}
            />
            <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-muted text-sm">
              {selected?.token.symbol ?? ''}
            </span>
          </div>
        </FormField>
        <FormField id={ids.recipient} label="To address" error={shown('recipient')}>
          <input
            id={ids.recipient}
            ref={recipientRef}
            className={classNames(getInputClassName(shown('recipient') !== undefined), 'font-mono')}
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            value={form.recipient}
            aria-invalid={shown('recipient') !== undefined}
            aria-describedby={`${ids.recipient}-message`}
            onChange={(event) => setForm((current) => ({ ...current, recipient: event.target.value }))}
            onBlur={() => setTouched((current) => ({ ...current, recipient: true }))}
          />
        </FormField>
        <p className="text-muted text-sm">
          {isSponsored
            ? 'Gas is sponsored: you pay nothing extra.'
            : `Gas is paid from this account in ${selected?.chain.nativeSymbol ?? 'the native token'}.`}
        </p>
        {phase.name === 'failed' ? (
          <p ref={resultRef} tabIndex={-1} role="alert" className="text-danger text-sm outline-none">
            {phase.message}
          </p>
        ) : null}
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
