import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ArrowLeft, X } from 'lucide-react'
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react'
import { erc20Abi, maxUint256 } from 'viem'
import {
  type Connector,
  useConfig,
  useConnect,
  useConnection,
  useConnectors,
  useDisconnect,
  WagmiProvider,
} from 'wagmi'
import {
  readContract,
  sendTransaction,
  switchChain,
  waitForTransactionReceipt,
  writeContract,
} from 'wagmi/actions'
import { formatChainName } from '../../lib/format'
import { Dialog, DialogTitle } from '../../ui/dialog'
import { Skeleton } from '../../ui/skeleton'
import { toast } from '../../ui/use-toast'
import {
  type Chain,
  isNativeTokenAddress,
  isSameTokenAddress,
  selectOfferedChains,
  selectOfferedTokens,
  type Token,
} from '../routing/catalogue'
import { useChains, useTokens } from '../routing/use-catalogue'
import { AmountStep } from './amount-step'
import { ChainTokenStep } from './chain-token-step'
import { canConfirmPayment, getBlockingMessage, getConfirmMessages } from './confirm-messages'
import { ConfirmStep } from './confirm-step'
import { formatTokenAmount, getUsdValue, parseAmountText } from './pay-amount'
import type { PayLinkSummary } from './pay-link-summary'
import {
  getBackOutcome,
  initialPayModalState,
  type PayModalState,
  payStepTitles,
  reducePayModal,
} from './pay-modal-state'
import { ProcessingStep } from './processing-step'
import { FailureView, SuccessView } from './result-views'
import type { RouteInput } from './route-builder'
import { selectSpender } from './spender'
import { postRouteReceipt } from './transaction-record'
import { usePaymentTracking } from './use-payment-tracking'
import { useRouteState } from './use-route-state'
import { getPayWagmiConfig } from './wagmi-config'
import { getTokenBalance, walletBalancesQueryOptions } from './wallet-balances'
import { getWalletInstallUrl, isMobileDevice, type WalletCatalogueEntry } from './wallet-catalogue'
import { describePaymentError } from './wallet-errors'
import { type DetectedWallet, WalletStep } from './wallet-step'

export type PayModalProps = {
  link: PayLinkSummary
  open: boolean
  onOpenChange: (open: boolean) => void
  onSuccess?: () => void
  onFailure?: () => void
}

function getFallbackChain(link: PayLinkSummary): Chain {
  return {
    chainId: link.chain_id,
    networkIdentifier: link.chain,
    networkName: formatChainName(link.chain),
    chainIconURI: '',
    type: 'evm',
    enabled: true,
    visible: true,
    nativeCurrency: { symbol: 'ETH', decimals: 18 },
  }
}

/**
 * The payer's seven-step modal (SPEC §2 "Pay modal"), loaded with React.lazy on the first open: it
 * carries wagmi, its connectors and viem's actions, which the pay page's first paint never waits for.
 */
export default function PayModal(props: PayModalProps) {
  const chainsQuery = useChains()
  const chains = useMemo(() => selectOfferedChains(chainsQuery.data?.items ?? []), [chainsQuery.data])
  if (!props.open) return null
  if (chainsQuery.isPending) {
    return (
      <PayDialogShell title={payStepTitles[0]} onDismiss={() => props.onOpenChange(false)}>
        <div className="grid gap-3" role="status" aria-label="Loading wallets">
          <Skeleton className="h-11 w-full" />
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      </PayDialogShell>
    )
  }
  const configChains = chains.length > 0 ? chains : [getFallbackChain(props.link)]
  return (
    <WagmiProvider config={getPayWagmiConfig(configChains)} reconnectOnMount={false}>
      <PayFlow {...props} chains={chains} chainsError={chainsQuery.data?.error ?? null} />
    </WagmiProvider>
  )
}

function PayDialogShell({
  title,
  onDismiss,
  onBack,
  onClose,
  children,
}: {
  title: string
  /** Escape and a click outside (SPEC: the same as Back). */
  onDismiss: () => void
  onBack?: (() => void) | undefined
  onClose?: (() => void) | undefined
  children: React.ReactNode
}) {
  // Each new step moves focus to its title, so a screen reader hears where the payer is and the
  // focus never falls back to the dialog itself when the pressed button leaves with its step.
  const headerRef = useRef<HTMLDivElement>(null)
  const previousTitle = useRef(title)
  useEffect(() => {
    if (previousTitle.current === title) return
    previousTitle.current = title
    headerRef.current?.querySelector<HTMLElement>('h2')?.focus()
  }, [title])
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onDismiss()
      }}
      hasCloseButton={false}
      isDescribed={false}
    >
      <div ref={headerRef} className="-mt-2 mb-4 flex min-h-11 items-center gap-1">
        {onBack === undefined ? (
          <span className="size-11 shrink-0" aria-hidden="true" />
        ) : (
          <button
            type="button"
            aria-label="Back"
            onClick={onBack}
            className="-ml-2 inline-flex size-11 shrink-0 items-center justify-center rounded-control text-muted hover:bg-subtle hover:text-fg"
          >
            <ArrowLeft aria-hidden="true" className="size-5" />
          </button>
        )}
        <DialogTitle
          tabIndex={-1}
          className="min-w-0 flex-1 truncate text-center font-semibold text-lg tracking-tight outline-none"
        >
          {title}
        </DialogTitle>
        {onClose === undefined ? (
          <span className="size-11 shrink-0" aria-hidden="true" />
        ) : (
          <button
            type="button"
            aria-label="Close"
            onClick={onClose}
            className="-mr-2 inline-flex size-11 shrink-0 items-center justify-center rounded-control text-muted hover:bg-subtle hover:text-fg"
          >
            <X aria-hidden="true" className="size-5" />
          </button>
        )}
      </div>
      {children}
    </Dialog>
  )
}

/** Shows a toast once per episode: again only after `key` went back to null. */
function useToastOnce(key: string | null, show: (key: string) => void) {
  const shown = useRef<string | null>(null)
  useEffect(() => {
    if (key === null) {
      shown.current = null
      return
    }
    if (shown.current !== null) return
    shown.current = key
    show(key)
  }, [key, show])
}

function PayFlow({
  link,
  open,
  onOpenChange,
  onSuccess,
  onFailure,
  chains,
  chainsError,
}: PayModalProps & { chains: Chain[]; chainsError: string | null }) {
  const [state, dispatch] = useReducer(reducePayModal, initialPayModalState)
  const config = useConfig()
  const connection = useConnection()
  const connectors = useConnectors()
  const connect = useConnect()
  const disconnect = useDisconnect()
  const queryClient = useQueryClient()
  const tokensQuery = useTokens()
  const address = connection.address
  const isConnected =
    address !== undefined && (connection.status === 'connected' || connection.status === 'reconnecting')
  const [pendingWallet, setPendingWallet] = useState<string | null>(null)
  const [switchingChainId, setSwitchingChainId] = useState<number | null>(null)

  // SPEC: every open starts on step 0.
  useEffect(() => {
    if (open) dispatch({ type: 'open' })
  }, [open])
  // SPEC: a wallet that disconnects on steps 1-3 sends the payer back to step 0.
  useEffect(() => {
    if (!isConnected) dispatch({ type: 'disconnected' })
  }, [isConnected])
  useEffect(() => {
    if (isConnected && state.step === 0 && !state.hasAutoAdvanced) dispatch({ type: 'connected' })
  }, [isConnected, state.step, state.hasAutoAdvanced])

  const disconnectWallet = useCallback(async () => {
    try {
      await disconnect.mutateAsync({})
    } catch (error) {
      console.warn('Wallet disconnect failed', error)
    }
  }, [disconnect])

  const close = useCallback(() => {
    if (isConnected) void disconnectWallet()
    onOpenChange(false)
  }, [isConnected, disconnectWallet, onOpenChange])

  const goBack = useCallback(() => {
    const outcome = getBackOutcome(state.step)
    if (outcome === 'none') return
    if (outcome === 'close') {
      close()
      return
    }
    if (outcome === 'disconnect') void disconnectWallet()
    dispatch({ type: 'back' })
  }, [state.step, close, disconnectWallet])

  // ---- step 0: wallets
  const detected = useMemo(() => listDetectedWallets(connectors), [connectors])
  const walletConnectConnector = connectors.find((connector) => connector.type === 'walletConnect')
  const connectWith = async (connector: Connector, pendingId: string) => {
    if (isConnected && connection.connector?.uid === connector.uid) {
      dispatch({ type: 'resume' })
      return
    }
    setPendingWallet(pendingId)
    try {
      await connect.mutateAsync({ connector })
    } catch (error) {
      // SPEC §8: wallet connect errors are logged only.
      console.warn('Wallet connection failed', error)
    } finally {
      setPendingWallet(null)
    }
  }
  const openCatalogueEntry = (entry: WalletCatalogueEntry) => {
    const match = connectors.find(
      (connector) =>
        entry.detect.rdns.includes(getConnectorRdns(connector) ?? '') ||
        (entry.id === 'walletconnect' && connector.type === 'walletConnect'),
    )
    if (match !== undefined) {
      void connectWith(match, entry.id)
      return
    }
    const isMobile = isMobileDevice()
    const url = getWalletInstallUrl(entry, window.location.href, isMobile, navigator.userAgent)
    if (isMobile && entry.buildDeepLink !== undefined) window.location.assign(url)
    else window.open(url, '_blank', 'noopener,noreferrer')
  }

  // ---- step 1: chain and token
  const tokensByChain = useMemo(
    () =>
      selectOfferedTokens((tokensQuery.data?.items ?? []).filter((token) => token.chainId === state.chainId)),
    [tokensQuery.data, state.chainId],
  )
  const selectedChain = chains.find((chain) => chain.chainId === state.chainId)
  const selectedToken = tokensByChain.find(
    (token) => state.tokenAddress !== null && isSameTokenAddress(token.address, state.tokenAddress),
  )
  const balancesQuery = useQuery({
    ...walletBalancesQueryOptions(state.chainId ?? 0, address ?? ''),
    enabled: open && isConnected && state.chainId !== null && address !== undefined,
  })
  const balances = balancesQuery.data
  const getBalance = (token: Token): bigint | null =>
    balances === undefined ? null : getTokenBalance(balances, token.address)
  const totalUsd =
    balances === undefined
      ? null
      : tokensByChain.reduce((sum, token) => {
          const usd = getUsdValue(getTokenBalance(balances, token.address), {
            decimals: token.decimals,
            usdPrice: token.usdPrice ?? null,
          })
          return sum + (usd ?? 0)
        }, 0)
  const getNativeUsdPrice = (chain: Chain): number | null =>
    (tokensQuery.data?.items ?? []).find(
      (token) => token.chainId === chain.chainId && isNativeTokenAddress(token.address),
    )?.usdPrice ?? null

  const ensureChain = useCallback(
    async (chainId: number) => {
      if (connection.chainId === chainId) return
      setSwitchingChainId(chainId)
      try {
        // wagmi's injected connector adds the chain on 4902 (with the catalogue's RPC URL) and retries.
        await switchChain(config, { chainId })
      } finally {
        setSwitchingChainId(null)
      }
    },
    [config, connection.chainId],
  )
  const selectChain = (chain: Chain) => {
    dispatch({ type: 'selectChain', chainId: chain.chainId })
    ensureChain(chain.chainId).catch((error: unknown) => console.warn('Chain switch failed', error))
  }

  // ---- step 2 and 3: amount
  const amountToken = {
    decimals: selectedToken?.decimals ?? 18,
    usdPrice: selectedToken?.usdPrice ?? null,
  }
  const amount = parseAmountText(
    state.amountText,
    state.unit === 'USD' && !(amountToken.usdPrice !== null && amountToken.usdPrice > 0)
      ? 'TOKEN'
      : state.unit,
    amountToken,
  )
  const balance = selectedToken === undefined ? null : getBalance(selectedToken)
  const isNative = selectedToken === undefined ? false : isNativeTokenAddress(selectedToken.address)

  // ---- step 3: route, allowance, countdown
  const isConfirmStep = state.step === 3
  const routeInput: RouteInput | null =
    address !== undefined &&
    selectedToken !== undefined &&
    amount !== undefined &&
    amount > 0n &&
    link.token_address !== null
      ? {
          fromChain: selectedToken.chainId,
          toChain: link.chain_id,
          fromToken: selectedToken.address,
          toToken: link.token_address,
          fromAmount: amount,
          fromAddress: address,
          toAddress: link.receiver_address,
        }
      : null
  const { route: currentRoute, secondsLeft } = useRouteState(isConfirmStep, routeInput)

  const spender = currentRoute.status === 'ready' ? selectSpender(currentRoute) : null
  const fromChainId = selectedToken?.chainId ?? 0
  const tokenAddress = selectedToken?.address as `0x${string}` | undefined
  useEffect(() => {
    if (isConfirmStep && isConnected && connection.chainId !== fromChainId && fromChainId !== 0) {
      ensureChain(fromChainId).catch((error: unknown) => console.warn('Chain switch failed', error))
    }
  }, [isConfirmStep, isConnected, connection.chainId, fromChainId, ensureChain])
  const allowanceQuery = useQuery({
    queryKey: ['allowance', fromChainId, tokenAddress, address, spender],
    queryFn: () =>
      readContract(config, {
        chainId: fromChainId,
        address: tokenAddress as `0x${string}`,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [address as `0x${string}`, spender as `0x${string}`],
      }),
    enabled:
      isConfirmStep &&
      !isNative &&
      tokenAddress !== undefined &&
      address !== undefined &&
      spender !== null &&
      connection.chainId === fromChainId,
    staleTime: 0,
  })
  const allowance = allowanceQuery.data ?? null
  const [approving, setApproving] = useState<'exact' | 'max' | null>(null)
  const [isConfirming, setConfirming] = useState(false)
  const messages = getConfirmMessages({ amount, balance, isNative, spender, route: currentRoute })
  const canConfirm = canConfirmPayment({
    amount,
    balance,
    isNative,
    spender,
    route: currentRoute,
    allowance,
    isApproving: approving !== null,
    isCheckingAllowance: allowanceQuery.isFetching,
  })
  const showCannotConfirm = useCallback(
    (message: string) =>
      toast({ title: 'Cannot confirm payment', description: message, variant: 'destructive' }),
    [],
  )
  useToastOnce(isConfirmStep ? getBlockingMessage(messages) : null, showCannotConfirm)

  const failBeforeSend = (error: unknown) => {
    console.warn('Payment failed before sending', error)
    toast({ title: 'Payment failed', description: describePaymentError(error), variant: 'destructive' })
    onFailure?.()
  }

  const approve = async (kind: 'exact' | 'max') => {
    if (tokenAddress === undefined || spender === null || amount === undefined) return
    setApproving(kind)
    try {
      await ensureChain(fromChainId)
      const hash = await writeContract(config, {
        chainId: fromChainId,
        address: tokenAddress,
        abi: erc20Abi,
        functionName: 'approve',
        args: [spender, kind === 'max' ? maxUint256 : amount],
      })
      const receipt = await waitForTransactionReceipt(config, { hash, chainId: fromChainId })
      if (receipt.status !== 'success') throw new Error('Approval reverted: unknown reason')
    } catch (error) {
      failBeforeSend(error)
    } finally {
      setApproving(null)
      await allowanceQuery.refetch()
    }
  }

  const confirm = async () => {
    if (currentRoute.status !== 'ready' || address === undefined || !canConfirm) return
    setConfirming(true)
    try {
      await ensureChain(fromChainId)
      const { txReq } = currentRoute
      const hash = await sendTransaction(config, {
        chainId: fromChainId,
        to: txReq.to,
        data: txReq.data,
        value: txReq.value,
        ...(txReq.gasLimit === undefined ? {} : { gas: txReq.gasLimit }),
        ...(txReq.maxFeePerGas === undefined ? {} : { maxFeePerGas: txReq.maxFeePerGas }),
        ...(txReq.maxPriorityFeePerGas === undefined
          ? {}
          : { maxPriorityFeePerGas: txReq.maxPriorityFeePerGas }),
      })
      dispatch({
        type: 'submitted',
        payment: {
          intentId: currentRoute.intentId,
          txHash: hash,
          fromChainId,
          payer: address,
          submittedAtMs: Date.now(),
          isReceiptPosted: false,
        },
      })
      // Step 4's first poll waits for this: the server starts tracking inside the receipt post.
      void postRouteReceipt(currentRoute.intentId, hash).then(() =>
        dispatch({ type: 'receiptPosted', txHash: hash }),
      )
    } catch (error) {
      // SPEC-NOTES: a rejection or an error before the transaction is sent stays on step 3.
      failBeforeSend(error)
    } finally {
      setConfirming(false)
    }
  }

  // ---- step 4: follow the payment
  const payment = state.payment
  const isProcessing = state.step === 4
  const { record, outcome, failureDetail, nowMs: now } = usePaymentTracking(config, payment, isProcessing)
  const settledRef = useRef(false)
  useEffect(() => {
    if (state.step !== 4) {
      if (state.step < 4) settledRef.current = false
      return
    }
    if (outcome === null || settledRef.current) return
    settledRef.current = true
    void queryClient.invalidateQueries({ queryKey: ['wallet-balances'] })
    if (outcome === 'success') {
      dispatch({ type: 'succeeded' })
      onSuccess?.()
      return
    }
    dispatch({ type: 'failed', message: failureDetail })
    toast({
      title: 'Transaction failed',
      description: 'This payment did not complete. You can close the modal and try again.',
      variant: 'destructive',
    })
    onFailure?.()
  }, [state.step, outcome, failureDetail, onSuccess, onFailure, queryClient])

  const chainName = (chainId: number) =>
    chains.find((chain) => chain.chainId === chainId)?.networkName ?? `Chain ${chainId}`
  const receives = `${link.token_name.length > 0 ? link.token_name : 'Tokens'} on ${chainName(link.chain_id)}`
  // The quote in the link's token, when the route has one and the token's decimals are known.
  const linkToken = (tokensQuery.data?.items ?? []).find(
    (token) =>
      token.chainId === link.chain_id &&
      link.token_address !== null &&
      isSameTokenAddress(token.address, link.token_address),
  )
  const quotedReceives =
    currentRoute.status === 'ready' && currentRoute.toAmount !== null && linkToken !== undefined
      ? `≈ ${formatTokenAmount(currentRoute.toAmount, linkToken.decimals, 6)} ${receives}`
      : receives

  return (
    <PayDialogShell
      title={payStepTitles[state.step]}
      onDismiss={goBack}
      onBack={state.step === 1 ? goBack : undefined}
      onClose={state.step === 4 ? undefined : close}
    >
      {renderStep(state)}
    </PayDialogShell>
  )

  function renderStep(current: PayModalState) {
    switch (current.step) {
      case 0:
        return (
          <WalletStep
            detected={detected}
            pendingId={pendingWallet}
            hasWalletConnect={walletConnectConnector !== undefined}
            onConnectDetected={(wallet) => {
              const connector = connectors.find((candidate) => candidate.uid === wallet.id)
              if (connector !== undefined) void connectWith(connector, wallet.id)
            }}
            onSelectCatalogue={openCatalogueEntry}
            onWalletConnect={() => {
              if (walletConnectConnector !== undefined)
                void connectWith(walletConnectConnector, 'walletconnect')
            }}
          />
        )
      case 1:
        return (
          <ChainTokenStep
            chains={chains}
            tokens={tokensByChain}
            isLoading={tokensQuery.isPending}
            error={chainsError ?? tokensQuery.data?.error ?? null}
            getBalance={getBalance}
            getNativeUsdPrice={getNativeUsdPrice}
            totalUsd={totalUsd}
            tab={current.tab}
            selectedChainId={current.chainId}
            selectedTokenAddress={selectedToken?.address ?? null}
            switchingChainId={switchingChainId}
            onTabChange={(tab) => dispatch({ type: 'setTab', tab })}
            onSelectChain={selectChain}
            onSelectToken={(token) => dispatch({ type: 'selectToken', tokenAddress: token.address })}
            onContinue={() => dispatch({ type: 'continue' })}
          />
        )
      case 2:
        if (selectedToken === undefined) return null
        return (
          <AmountStep
            token={{
              symbol: selectedToken.symbol,
              decimals: selectedToken.decimals,
              usdPrice: selectedToken.usdPrice ?? null,
            }}
            networkName={selectedChain?.networkName ?? chainName(selectedToken.chainId)}
            balance={balance}
            text={current.amountText}
            unit={current.unit}
            onChange={(text, unit) => dispatch({ type: 'setAmount', text, unit })}
            onBack={goBack}
            onNext={() => dispatch({ type: 'next' })}
          />
        )
      case 3:
        if (selectedToken === undefined) return null
        return (
          <ConfirmStep
            amount={amount ?? 0n}
            token={selectedToken}
            usdValue={amount === undefined ? undefined : getUsdValue(amount, amountToken)}
            networkName={chainName(selectedToken.chainId)}
            receiverAddress={link.receiver_address}
            receives={quotedReceives}
            isNative={isNative}
            spender={spender}
            allowance={allowance}
            isCheckingAllowance={allowanceQuery.isFetching}
            approving={approving}
            route={currentRoute}
            messages={messages}
            secondsLeft={secondsLeft}
            canConfirm={canConfirm && !isConfirming}
            isConfirming={isConfirming}
            onApprove={(kind) => void approve(kind)}
            onBack={goBack}
            onConfirm={() => void confirm()}
          />
        )
      case 4:
        if (payment === null) return null
        return (
          <ProcessingStep
            record={record}
            submittedAtMs={payment.submittedAtMs}
            nowMs={now}
            sourceTxHash={payment.txHash}
            getChainName={chainName}
          />
        )
      case 5:
        return (
          <SuccessView
            summary={
              selectedToken === undefined || amount === undefined
                ? `${link.alias} received ${receives}.`
                : `You sent ${formatTokenAmount(amount, selectedToken.decimals, 6)} ${selectedToken.symbol} to ${link.alias}.`
            }
            onClose={close}
          />
        )
      case 6:
        return <FailureView detail={current.failureMessage} onClose={close} />
      default: {
        const unknownStep: never = current.step
        return unknownStep
      }
    }
  }
}

/** The EIP-6963 rdns of a connector: wagmi names each announced wallet's connector by it. */
function getConnectorRdns(connector: Connector): string | undefined {
  if (typeof connector.rdns === 'string') return connector.rdns
  if (Array.isArray(connector.rdns)) return connector.rdns[0]
  return connector.type === 'injected' && connector.id !== 'injected' ? connector.id : undefined
}

/**
 * The wallets the browser offers: every EIP-6963 announcement (wagmi makes each an injected connector
 * whose id is the rdns), and the legacy `window.ethereum` only when nothing announced itself.
 */
function listDetectedWallets(connectors: readonly Connector[]): DetectedWallet[] {
  const wallets: DetectedWallet[] = []
  for (const connector of connectors) {
    const rdns = getConnectorRdns(connector)
    if (rdns === undefined) continue
    wallets.push({ id: connector.uid, name: connector.name, icon: connector.icon, rdns })
  }
  if (wallets.length > 0) return wallets
  const hasLegacy = typeof window !== 'undefined' && (window as { ethereum?: unknown }).ethereum !== undefined
  const legacy = connectors.find((connector) => connector.id === 'injected')
  if (hasLegacy && legacy !== undefined) wallets.push({ id: legacy.uid, name: 'Browser Wallet' })
  return wallets
}
