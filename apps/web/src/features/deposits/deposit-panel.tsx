import { createDepositRequestSchema, type DepositResponse } from '@quicklinks/core/api/deposits'
import { AppError } from '@quicklinks/core/app-error'
import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { Link } from 'react-router'
import { Button } from '../../ui/button'
import { CopyButton } from '../../ui/copy-button'
import { FormField } from '../../ui/form-field'
import { getInputClassName } from '../../ui/input-class-name'
import { DepositQrCode } from './deposit-qr-code'
import { createDeposit, useDeposit } from './deposits-api'
import { describeTransfer } from './describe-transfer'

/**
 * The deposit panel (docs/product.md#send-from-any-wallet-or-exchange): the payer may give a refund
 * address (needed when paying from an exchange), then gets one address for every network, its QR
 * code and EIP-681 link per network and token, the expiry, and what became of each transfer.
 * No wallet code: a phone wallet opens the QR code or the link as a filled-in transfer.
 */
export function DepositPanel({ slug, invoiceId }: { slug: string; invoiceId?: string | undefined }) {
  const [refundAddress, setRefundAddress] = useState('')
  const [fieldError, setFieldError] = useState<string | undefined>(undefined)
  const fieldId = useId()
  const mutation = useMutation({
    mutationFn: (input: { refundAddress?: string; invoiceId?: string }) => createDeposit(slug, input),
  })
  if (mutation.data) return <DepositDetails initial={mutation.data} />

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const input = {
      ...(refundAddress.trim() === '' ? {} : { refundAddress: refundAddress.trim() }),
      ...(invoiceId ? { invoiceId } : {}),
    }
    const parsed = createDepositRequestSchema.safeParse(input)
    if (!parsed.success) {
      setFieldError('Enter an address of 0x and 40 hex digits, or leave it empty.')
      return
    }
    setFieldError(undefined)
    mutation.mutate(parsed.data)
  }
  const failure = mutation.error instanceof AppError ? mutation.error.userMessage : mutation.error?.message
  return (
    <form className="mt-6 grid gap-3 border-border border-t pt-6" onSubmit={submit} noValidate>
      <h2 className="font-semibold">Send from any wallet or exchange</h2>
      <FormField
        id={fieldId}
        label="Refund address (optional)"
        error={fieldError}
        help="Paying from an exchange? Enter an address of yours: a refund goes there, not to the exchange."
      >
        <input
          id={fieldId}
          value={refundAddress}
          onChange={(event) => setRefundAddress(event.target.value)}
          placeholder="0x…"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={fieldError !== undefined}
          aria-describedby={`${fieldId}-message`}
          className={`${getInputClassName(fieldError !== undefined)} font-mono`}
        />
      </FormField>
      {failure ? (
        <p role="alert" className="text-danger text-sm">
          {failure}
        </p>
      ) : null}
      <Button type="submit" disabled={mutation.isPending}>
        Get deposit address
      </Button>
    </form>
  )
}

function DepositDetails({ initial }: { initial: DepositResponse }) {
  const { data: deposit = initial } = useDeposit(initial)
  const [chainId, setChainId] = useState(deposit.chains[0]?.chainId ?? 0)
  const chain = deposit.chains.find((candidate) => candidate.chainId === chainId) ?? deposit.chains[0]
  const [tokenAddress, setTokenAddress] = useState(chain?.tokens[0]?.address ?? '')
  const token = chain?.tokens.find((candidate) => candidate.address === tokenAddress) ?? chain?.tokens[0]
  const chainFieldId = useId()
  const tokenFieldId = useId()
  const expiresAt = new Date(deposit.expiresAt)
  return (
    <section className="mt-6 grid gap-4 border-border border-t pt-6" aria-label="Deposit address">
      <h2 className="font-semibold">Send from any wallet or exchange</h2>
      <p className="text-muted text-sm">
        One plain transfer to this address pays{deposit.amount ? ` ${deposit.amount}` : ''}: the same address
        on every network below. Send before{' '}
        {expiresAt.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}; a late transfer, or a
        token not listed, is refunded.
      </p>
      <div className="flex items-center gap-2 rounded-control bg-subtle px-3 py-2">
        <span className="min-w-0 flex-1 break-all font-mono text-sm" data-testid="deposit-address">
          {deposit.address}
        </span>
        <CopyButton text={deposit.address} label="Copy deposit address" />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <label className="grid gap-1.5 text-sm" htmlFor={chainFieldId}>
          <span className="font-medium">Network</span>
          <select
            id={chainFieldId}
            className={getInputClassName(false)}
            value={chain?.chainId}
            onChange={(event) => {
              const next = deposit.chains.find(
                (candidate) => candidate.chainId === Number(event.target.value),
              )
              setChainId(Number(event.target.value))
              setTokenAddress(
                next?.tokens.find((candidate) => candidate.symbol === token?.symbol)?.address ?? '',
              )
            }}
          >
            {deposit.chains.map((candidate) => (
              <option key={candidate.chainId} value={candidate.chainId}>
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1.5 text-sm" htmlFor={tokenFieldId}>
          <span className="font-medium">Token</span>
          <select
            id={tokenFieldId}
            className={getInputClassName(false)}
            value={token?.address}
            onChange={(event) => setTokenAddress(event.target.value)}
          >
            {chain?.tokens.map((candidate) => (
              <option key={candidate.address} value={candidate.address}>
                {candidate.symbol}
              </option>
            ))}
          </select>
        </label>
      </div>
      {token ? (
        <>
          <DepositQrCode uri={token.uri} />
          <div className="grid gap-1.5">
            <p className="font-medium text-sm">Payment request (EIP-681)</p>
            <div className="flex items-center gap-2 rounded-control bg-subtle px-3 py-2">
              <a
                href={token.uri}
                className="min-w-0 flex-1 break-all font-mono text-xs"
                data-testid="deposit-uri"
              >
                {token.uri}
              </a>
              <CopyButton text={token.uri} label="Copy payment request" />
            </div>
          </div>
        </>
      ) : null}
      <Link className="text-sm underline" to={`/pay/deposits/${deposit.id}`}>
        Follow this deposit
      </Link>
      {deposit.transfers.length > 0 ? (
        <ul className="grid gap-2 text-sm" aria-label="Transfers received">
          {deposit.transfers.map((transfer) => (
            <li
              key={`${transfer.chainId}-${transfer.txHash}`}
              className="rounded-control bg-subtle px-3 py-2"
            >
              {describeTransfer(deposit, transfer)}
              {transfer.intentId && transfer.state === 'routed' ? (
                <>
                  {' '}
                  <Link className="underline" to={`/pay/status/${transfer.intentId}`}>
                    Follow the payment
                  </Link>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
