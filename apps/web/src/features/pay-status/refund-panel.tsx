import type { PayStatusRefund } from '@quicklinks/core/api/pay-status'
import type { RoutingChain } from '@quicklinks/core/api/routing'
import { useEffect, useMemo, useState } from 'react'
import { useConfig, useConnection, useDisconnect, WagmiProvider } from 'wagmi'
import { sendTransaction, waitForTransactionReceipt } from 'wagmi/actions'
import { maskMiddle } from '../../lib/format'
import { Button } from '../../ui/button'
import { Skeleton } from '../../ui/skeleton'
import { ConnectWalletStep } from '../pay/connect-wallet-step'
import { TxLink } from '../pay/tx-link'
import { useEnsureChain } from '../pay/use-ensure-chain'
import { getPayWagmiConfig } from '../pay/wagmi-config'
import { useWalletConnectSetting } from '../pay/wallet-connect-setting'
import { getShortMessage, isUserRejection } from '../pay/wallet-errors'
import { getChainName, selectOfferedChains } from '../routing/catalogue'
import { useChains } from '../routing/use-catalogue'
import { formatWait, getRefundStep } from './pay-status-text'

export type RefundPanelProps = {
  refund: PayStatusRefund
  /** When the answer carrying `refund` arrived (epoch ms): the countdown runs from it. */
  answeredAtMs: number
  /** The refund's receipt came back successful: the page reads the status again. */
  onRefunded: () => void
}

/**
 * The self-serve refund (docs/product.md#self-serve-refund), loaded with React.lazy: the pay modal's
 * wallet connection (wagmi, the same connectors and catalogue chains) inside the status page.
 */
export default function RefundPanel(props: RefundPanelProps) {
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
  const configChains = chains.length > 0 ? chains : [getFallbackChain(props.refund.chainId)]
  return (
    <WagmiProvider config={getPayWagmiConfig(configChains, walletConnectQuery.data)} reconnectOnMount={false}>
      <RefundFlow {...props} chains={chains} />
    </WagmiProvider>
  )
}

/** A chain wagmi can hold when the catalogue could not be read (the wallet knows its RPC). */
export function getFallbackChain(chainId: number): RoutingChain {
  return {
    chainId,
    networkIdentifier: String(chainId),
    networkName: `Chain ${chainId}`,
    chainIconURI: '',
    type: 'evm',
    enabled: true,
    visible: true,
    nativeCurrency: { symbol: 'ETH', decimals: 18 },
    rpcUrl: '',
    blockExplorerUrl: '',
  }
}

type Sending =
  | { phase: 'idle'; error: string | null }
  | { phase: 'signing' }
  | { phase: 'confirming'; hash: string }
  | { phase: 'done'; hash: string }

function RefundFlow({
  refund,
  answeredAtMs,
  onRefunded,
  chains,
}: RefundPanelProps & { chains: RoutingChain[] }) {
  const config = useConfig()
  const connection = useConnection()
  const disconnect = useDisconnect()
  const { ensureChain, switchingChainId } = useEnsureChain()
  const [nowMs, setNowMs] = useState(() => Date.now())
  const [sending, setSending] = useState<Sending>({ phase: 'idle', error: null })
  const [switchError, setSwitchError] = useState<string | null>(null)
  useEffect(() => {
    const interval = setInterval(() => setNowMs(Date.now()), 1000)
    return () => clearInterval(interval)
  }, [])
  const isConnected =
    connection.address !== undefined &&
    (connection.status === 'connected' || connection.status === 'reconnecting')
  const step = getRefundStep({
    refund,
    address: isConnected ? connection.address : undefined,
    walletChainId: connection.chainId,
    secondsSinceAnswer: Math.max(0, (nowMs - answeredAtMs) / 1000),
  })
  const chainName = (chainId: number) => getChainName(chains, chainId)

  const send = async () => {
    setSending({ phase: 'signing' })
    try {
      const hash = await sendTransaction(config, {
        chainId: refund.chainId,
        to: refund.contract as `0x${string}`,
        data: refund.data as `0x${string}`,
      })
      setSending({ phase: 'confirming', hash })
      const receipt = await waitForTransactionReceipt(config, { hash, chainId: refund.chainId })
      if (receipt.status !== 'success') {
        setSending({
          phase: 'idle',
          error:
            'The contract refused the refund. If it was refunded already, this page shows it in a moment.',
        })
        return
      }
      setSending({ phase: 'done', hash })
      onRefunded()
    } catch (error) {
      setSending({
        phase: 'idle',
        error: isUserRejection(error)
          ? 'You cancelled the refund in your wallet.'
          : `The refund could not be sent: ${getShortMessage(error) ?? 'unknown reason'}.`,
      })
    }
  }

  const switchChain = async () => {
    setSwitchError(null)
    try {
      await ensureChain(refund.chainId)
    } catch (error) {
      setSwitchError(
        isUserRejection(error)
          ? 'You kept the wallet on its chain. Switch it to send the refund.'
          : `The wallet could not switch: ${getShortMessage(error) ?? 'unknown reason'}.`,
      )
    }
  }

  return (
    <section aria-labelledby="refund-heading" className="grid gap-3 rounded-control border border-border p-4">
      <h2 id="refund-heading" className="font-semibold">
        Take your deposit back
      </h2>
      {sending.phase === 'done' ? (
        <>
          <p role="status" className="text-sm">
            Refunded. The deposit is back in your wallet.
          </p>
          <dl className="grid gap-1 text-sm">
            <TxLink label="Refund transaction" hash={sending.hash} url={null} />
          </dl>
        </>
      ) : (
        renderStep()
      )}
    </section>
  )

  function renderStep() {
    switch (step.kind) {
      case 'connect':
        return (
          <>
            <p className="text-sm">Connect the wallet that paid to take the deposit back.</p>
            <ConnectWalletStep isConnected={false} onResume={() => undefined} />
          </>
        )
      case 'wrongWallet':
        return (
          <>
            <p role="alert" className="text-danger text-sm">
              This wallet did not make the deposit. Connect the wallet that paid ({maskMiddle(step.depositor)}
              ) to take it back.
            </p>
            <Button
              variant="secondary"
              onClick={() => void disconnect.mutateAsync({}).catch(() => undefined)}
            >
              Use another wallet
            </Button>
          </>
        )
      case 'wait':
        return (
          <>
            <p className="text-sm">
              The contract allows the refund in{' '}
              <strong className="tabular-nums">{formatWait(step.secondsLeft)}</strong>.
            </p>
            <Button disabled>Refund</Button>
          </>
        )
      case 'wrongChain':
        return (
          <>
            <p role="alert" className="text-sm">
              Your wallet is on {chainName(connection.chainId ?? 0)}. The deposit is on{' '}
              {chainName(step.chainId)}.
            </p>
            {switchError === null ? null : (
              <p role="alert" className="text-danger text-sm">
                {switchError}
              </p>
            )}
            <Button onClick={() => void switchChain()} isBusy={switchingChainId !== null}>
              Switch to {chainName(step.chainId)}
            </Button>
          </>
        )
      case 'ready':
        return (
          <>
            {sending.phase === 'idle' && sending.error !== null ? (
              <p role="alert" className="text-danger text-sm">
                {sending.error}
              </p>
            ) : null}
            {sending.phase === 'confirming' ? (
              <p role="status" className="text-sm">
                Refund sent. Waiting for it to be confirmed…
              </p>
            ) : null}
            <Button
              onClick={() => void send()}
              isBusy={sending.phase === 'signing' || sending.phase === 'confirming'}
            >
              Refund
            </Button>
          </>
        )
      default: {
        const unknown: never = step
        return unknown
      }
    }
  }
}
