import type { RoutingChain, RoutingToken } from '@quicklinks/core/api/routing'
import { useCallback, useEffect, useReducer } from 'react'
import { useConnection, useDisconnect } from 'wagmi'
import { getChainContracts, getChainName } from '../routing/catalogue'
import { AmountStep } from './amount-step'
import { ChainTokenStep } from './chain-token-step'
import { ConfirmPaymentStep } from './confirm-payment-step'
import { ConnectWalletStep } from './connect-wallet-step'
import { FailureStep } from './failure-step'
import { buildFixedRouteInput, describeFixedAmount, type FixedAmount, findLinkToken } from './fixed-amount'
import { getPayBackOutcome } from './get-pay-back-outcome'
import { QuotedLockedAmountStep } from './locked-amount-step'
import { PayDialogShell } from './pay-dialog-shell'
import type { PayLinkSummary } from './pay-link-summary'
import { type AmountEntry, initialPayModalState, type PayModalState, payStepTitles } from './pay-modal-state'
import { reducePayModal } from './reduce-pay-modal'
import { SuccessStep } from './success-step'
import { getReceivedSentence, getSentSentence, listPaymentTransactions } from './success-summary'
import { TrackPaymentStep } from './track-payment-step'
import type { TransactionRecord } from './transaction-record'
import { useEnsureChain } from './use-ensure-chain'
import { usePaymentChoice } from './use-payment-choice'

export type PayFlowProps = {
  link: PayLinkSummary
  open: boolean
  onOpenChange: (open: boolean) => void
  onSuccess?: (() => void) | undefined
  onFailure?: (() => void) | undefined
  /** The offered chains (docs/product.md#catalogue-filters), and the message when reading them failed. */
  chains: RoutingChain[]
  chainsError: string | null
  /** An invoice's amount due or a link's amount: shown locked, paid as exact output. */
  fixedAmount?: FixedAmount | undefined
}

/** The chain, token and amount the state holds on its step (the wallet step's are the kept ones). */
function getChoice(state: PayModalState): {
  chainId: number | null
  token: RoutingToken | null
  amount: AmountEntry | null
} {
  switch (state.step) {
    case 'wallet':
      return state.draft
    case 'chainToken':
      return state
    case 'amount':
    case 'confirm':
    case 'processing':
    case 'success':
      return { chainId: state.token.chainId, token: state.token, amount: state.amount }
    case 'failure':
      return { chainId: null, token: null, amount: null }
    default: {
      const unknownStep: never = state
      return unknownStep
    }
  }
}

/**
 * The pay modal's steps inside wagmi: one reducer over the seven steps (`reducePayModal`), the data
 * they share (the chosen chain's tokens, the payer's balances, the parsed amount), and the modal
 * rules of docs/product.md#pay-modal-rules (reset on open, back to the wallet step on a disconnect, Back and
 * Close).
 */
export function PayFlow({
  link,
  open,
  onOpenChange,
  onSuccess,
  onFailure,
  chains,
  chainsError,
  fixedAmount,
}: PayFlowProps) {
  const [state, dispatch] = useReducer(reducePayModal, initialPayModalState)
  const connection = useConnection()
  const disconnect = useDisconnect()
  const { ensureChain, switchingChainId } = useEnsureChain()
  const address = connection.address
  const isConnected =
    address !== undefined && (connection.status === 'connected' || connection.status === 'reconnecting')

  // Every open starts on step 0.
  useEffect(() => {
    if (open) dispatch({ type: 'open' })
  }, [open])
  // A wallet that disconnects on steps 1-3 sends the payer back to step 0.
  useEffect(() => {
    if (!isConnected) dispatch({ type: 'disconnected' })
  }, [isConnected])
  const canAutoAdvance = state.step === 'wallet' && !state.hasAutoAdvanced
  useEffect(() => {
    if (isConnected && canAutoAdvance) dispatch({ type: 'connected' })
  }, [isConnected, canAutoAdvance])

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
    const outcome = getPayBackOutcome(state.step)
    if (outcome === 'none') return
    if (outcome === 'close') {
      close()
      return
    }
    if (outcome === 'disconnect') void disconnectWallet()
    dispatch({ type: 'back' })
  }, [state.step, close, disconnectWallet])

  const choice = getChoice(state)
  const {
    tokensQuery,
    allTokens,
    chainTokens: tokensByChain,
    getBalance,
    getTotalUsd,
    getNativeUsdPrice,
    findCurrentToken,
    parseAmount,
  } = usePaymentChoice({ chains, chainId: choice.chainId, address, isEnabled: open && isConnected })
  const selectedToken = choice.token === null ? undefined : findCurrentToken(choice.token)
  const totalUsd = getTotalUsd(tokensByChain)

  const selectChain = (chain: RoutingChain) => {
    dispatch({ type: 'selectChain', chainId: chain.chainId })
    ensureChain(chain.chainId).catch((error: unknown) => console.warn('Chain switch failed', error))
  }

  const amount =
    choice.amount === null || selectedToken === undefined
      ? undefined
      : parseAmount(choice.amount, selectedToken)
  const balance = selectedToken === undefined ? null : getBalance(selectedToken)

  const chainName = (chainId: number) => getChainName(chains, chainId)
  const receives = `${link.token_name.length > 0 ? link.token_name : 'Tokens'} on ${chainName(link.chain_id)}`
  const linkToken = findLinkToken(allTokens, link)
  const {
    units: dueUnits,
    token: dueToken,
    text: dueText,
  } = describeFixedAmount(fixedAmount, link, linkToken)
  const onSucceeded = useCallback(
    (record: TransactionRecord | null) => dispatch({ type: 'succeeded', record }),
    [],
  )
  const onFailed = useCallback((message: string | null) => dispatch({ type: 'failed', message }), [])

  return (
    <PayDialogShell
      title={payStepTitles[state.step]}
      onDismiss={goBack}
      onBack={state.step === 'chainToken' ? goBack : undefined}
      onClose={state.step === 'processing' ? undefined : close}
    >
      {renderStep()}
    </PayDialogShell>
  )

  function renderStep() {
    switch (state.step) {
      case 'wallet':
        return <ConnectWalletStep isConnected={isConnected} onResume={() => dispatch({ type: 'resume' })} />
      case 'chainToken':
        return (
          <ChainTokenStep
            chains={chains}
            tokens={tokensByChain}
            isLoading={tokensQuery.isPending}
            error={chainsError ?? tokensQuery.data?.error ?? null}
            getBalance={getBalance}
            getNativeUsdPrice={getNativeUsdPrice}
            totalUsd={totalUsd}
            tab={state.tab}
            selectedChainId={state.chainId}
            selectedTokenAddress={selectedToken?.address ?? null}
            switchingChainId={switchingChainId}
            onTabChange={(tab) => dispatch({ type: 'setTab', tab })}
            onSelectChain={selectChain}
            onSelectToken={(token) => dispatch({ type: 'selectToken', token })}
            onContinue={() => dispatch({ type: 'continue' })}
          />
        )
      case 'amount': {
        const token = selectedToken ?? state.token
        if (fixedAmount !== undefined) {
          return (
            <QuotedLockedAmountStep
              label={fixedAmount.invoiceId === null ? 'Amount' : 'Amount due'}
              due={dueUnits}
              dueToken={dueToken}
              token={{ symbol: token.symbol, decimals: token.decimals }}
              networkName={chainName(token.chainId)}
              balance={balance}
              input={buildFixedRouteInput({
                link,
                token,
                address,
                toAmount: dueUnits,
                invoiceId: fixedAmount.invoiceId,
              })}
              onBack={goBack}
              onNext={() => dispatch({ type: 'next' })}
            />
          )
        }
        return (
          <AmountStep
            token={{ symbol: token.symbol, decimals: token.decimals, usdPrice: token.usdPrice ?? null }}
            networkName={chainName(token.chainId)}
            balance={balance}
            text={state.amount.text}
            unit={state.amount.unit}
            onChange={(text, unit) => dispatch({ type: 'setAmount', text, unit })}
            onBack={goBack}
            onNext={() => dispatch({ type: 'next' })}
          />
        )
      }
      case 'confirm':
        return (
          <ConfirmPaymentStep
            link={link}
            token={selectedToken ?? state.token}
            amount={amount}
            balance={balance}
            linkToken={linkToken}
            receives={receives}
            getChainName={chainName}
            sourceChainContracts={getChainContracts(chains, (selectedToken ?? state.token).chainId)}
            onBack={goBack}
            onSubmitted={(payment) => dispatch({ type: 'submitted', payment })}
            onReceiptPosted={(txHash) => dispatch({ type: 'receiptPosted', txHash })}
            onFailure={onFailure}
            fixed={
              fixedAmount === undefined
                ? undefined
                : { toAmount: dueUnits, invoiceId: fixedAmount.invoiceId, dueText }
            }
          />
        )
      case 'processing':
        return (
          <TrackPaymentStep
            payment={state.payment}
            getChainName={chainName}
            onSucceeded={onSucceeded}
            onFailed={onFailed}
            onSuccess={onSuccess}
            onFailure={onFailure}
          />
        )
      case 'success': {
        const received = getReceivedSentence({
          linkName: link.alias,
          record: state.record,
          linkToken,
          chainName: chainName(link.chain_id),
        })
        return (
          <SuccessStep
            summary={
              received ??
              getSentSentence({ linkName: link.alias, dueText, amount, token: state.token, receives })
            }
            transactions={listPaymentTransactions({
              sourceTxHash: state.record?.sourceTxHash ?? state.payment.txHash,
              sourceTxUrl: state.record?.fromChainTxUrl ?? null,
              destTxHash: state.record?.destTxHash ?? null,
              destTxUrl: state.record?.toChainTxUrl ?? null,
            })}
            intentId={state.payment.intentId}
            onClose={close}
          />
        )
      }
      case 'failure':
        return <FailureStep detail={state.failureMessage} onClose={close} />
      default: {
        const unknownStep: never = state
        return unknownStep
      }
    }
  }
}
