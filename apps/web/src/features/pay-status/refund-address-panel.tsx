import { buildRefundAddressMessage } from '@quicklinks/core/api/deposits'
import { AppError } from '@quicklinks/core/app-error'
import { type FormEvent, useId, useMemo, useState } from 'react'
import { getAddress, isAddress } from 'viem'
import { useConfig, useConnection, useDisconnect, WagmiProvider } from 'wagmi'
import { signMessage } from 'wagmi/actions'
import { maskMiddle } from '../../lib/format'
import { Button } from '../../ui/button'
import { FormField } from '../../ui/form-field'
import { getInputClassName } from '../../ui/input-class-name'
import { Skeleton } from '../../ui/skeleton'
import { changeRefundAddress } from '../deposits/deposits-api'
import { ConnectWalletStep } from '../pay/connect-wallet-step'
import { getPayWagmiConfig } from '../pay/wagmi-config'
import { useWalletConnectSetting } from '../pay/wallet-connect-setting'
import { getShortMessage, isUserRejection } from '../pay/wallet-errors'
import { selectOfferedChains } from '../routing/catalogue'
import { useChains } from '../routing/use-catalogue'
import { getFallbackChain } from './refund-panel'

export type RefundAddressPanelProps = {
  depositId: string
  /** The transfer's sender: the only wallet that may name another refund address. */
  sender: string
  /** The chain of the sender's transfer (a smart wallet's signature is checked there). */
  chainId: number
  /** Where a refund goes now. */
  refundTo: string
  /** The server took the new address: the page reads the deposit again. */
  onChanged: () => void
}

/** How long the signed message is good for (the server takes at most an hour). */
const messageLifetimeMs = 10 * 60_000

/**
 * Naming another refund address (docs/product.md#deposit-status-page), loaded with React.lazy: the
 * pay modal's wallet connection, then the sender signs the EIP-191 message naming this deposit,
 * the new address and an expiry, and the server checks it (docs/api.md#deposit-refund-address).
 */
export default function RefundAddressPanel(props: RefundAddressPanelProps) {
  const chainsQuery = useChains()
  const walletConnectQuery = useWalletConnectSetting()
  const chains = useMemo(() => selectOfferedChains(chainsQuery.data?.items ?? []), [chainsQuery.data])
  if (chainsQuery.isPending || walletConnectQuery.data === undefined) {
    return (
      <div role="status" aria-label="Loading wallets">
        <Skeleton className="h-24 w-full" />
      </div>
    )
  }
  const configChains = chains.length > 0 ? chains : [getFallbackChain(props.chainId)]
  return (
    <WagmiProvider config={getPayWagmiConfig(configChains, walletConnectQuery.data)} reconnectOnMount={false}>
      <RefundAddressFlow {...props} />
    </WagmiProvider>
  )
}

type Saving =
  | { phase: 'idle'; error: string | null }
  | { phase: 'signing' }
  | { phase: 'done'; address: string }

function RefundAddressFlow({ depositId, sender, refundTo, onChanged }: RefundAddressPanelProps) {
  const config = useConfig()
  const connection = useConnection()
  const disconnect = useDisconnect()
  const [address, setAddress] = useState('')
  const [fieldError, setFieldError] = useState<string | undefined>(undefined)
  const [saving, setSaving] = useState<Saving>({ phase: 'idle', error: null })
  const fieldId = useId()
  const connected =
    connection.address !== undefined &&
    (connection.status === 'connected' || connection.status === 'reconnecting')
      ? connection.address
      : undefined

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const next = address.trim()
    if (!isAddress(next, { strict: false })) {
      setFieldError('Enter an address of 0x and 40 hex digits.')
      return
    }
    if (!connected) return
    setFieldError(undefined)
    setSaving({ phase: 'signing' })
    const request = {
      refundAddress: getAddress(next),
      signer: connected,
      expiresAt: new Date(Date.now() + messageLifetimeMs).toISOString(),
    }
    try {
      const message = buildRefundAddressMessage({ depositId, ...request }, getAddress)
      const signature = await signMessage(config, { account: connected, message })
      await changeRefundAddress(depositId, { ...request, signature })
      setSaving({ phase: 'done', address: request.refundAddress })
      onChanged()
    } catch (error) {
      setSaving({
        phase: 'idle',
        error: isUserRejection(error)
          ? 'You cancelled the signature in your wallet.'
          : error instanceof AppError
            ? error.userMessage
            : `The wallet could not sign: ${getShortMessage(error) ?? 'unknown reason'}.`,
      })
    }
  }

  return (
    <section
      aria-labelledby="refund-address-heading"
      className="grid gap-3 rounded-control border border-border p-4"
    >
      <h2 id="refund-address-heading" className="font-semibold">
        Refund to another address
      </h2>
      {saving.phase === 'done' ? (
        <p role="status" className="text-sm">
          Saved. A refund of your transfer now goes to{' '}
          <span className="font-mono">{maskMiddle(saving.address)}</span>.
        </p>
      ) : connected === undefined ? (
        <>
          <p className="text-sm">
            A refund goes to {maskMiddle(refundTo)}. Connect the wallet that sent the transfer (
            {maskMiddle(sender)}) to name another address.
          </p>
          <ConnectWalletStep isConnected={false} onResume={() => undefined} />
        </>
      ) : connected.toLowerCase() !== sender.toLowerCase() ? (
        <>
          <p role="alert" className="text-danger text-sm">
            This wallet did not send the transfer. Connect the wallet that sent it ({maskMiddle(sender)}).
          </p>
          <Button variant="secondary" onClick={() => void disconnect.mutateAsync({}).catch(() => undefined)}>
            Use another wallet
          </Button>
        </>
      ) : (
        <form className="grid gap-3" onSubmit={(event) => void submit(event)} noValidate>
          <FormField
            id={fieldId}
            label="New refund address"
            error={fieldError}
            help="Your wallet signs a message naming this deposit and the address; nothing is sent on chain."
          >
            <input
              id={fieldId}
              value={address}
              onChange={(event) => {
                setAddress(event.target.value)
                setFieldError(undefined)
              }}
              placeholder="0x…"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={fieldError !== undefined}
              aria-describedby={`${fieldId}-message`}
              className={`${getInputClassName(fieldError !== undefined)} font-mono`}
            />
          </FormField>
          {saving.phase === 'idle' && saving.error !== null ? (
            <p role="alert" className="text-danger text-sm">
              {saving.error}
            </p>
          ) : null}
          <Button type="submit" isBusy={saving.phase === 'signing'}>
            Sign and save
          </Button>
        </form>
      )}
    </section>
  )
}
