import type { RoutingChain } from '@quicklinks/core/api/routing'
import { useCallback, useEffect, useMemo, useReducer } from 'react'
import { AmountStep } from '../pay/amount-step'
import { ChainTokenStep } from '../pay/chain-token-step'
import { ConfirmPaymentStep } from '../pay/confirm-payment-step'
import { FailureStep } from '../pay/failure-step'
import { formatTokenAmount, parseAmountText } from '../pay/pay-amount'
import { PayDialogShell } from '../pay/pay-dialog-shell'
import type { PayLinkSummary } from '../pay/pay-link-summary'
import { SuccessStep } from '../pay/success-step'
import { TrackPaymentStep } from '../pay/track-payment-step'
import { usePaymentChoice } from '../pay/use-payment-choice'
import { getChainContracts, getChainName } from '../routing/catalogue'
import { isSameToken, reduceSwap } from './reduce-swap'
import { SessionEndedPanel } from './session-ended-panel'
import { initialSwapState, type SwapState, swapStepTitles } from './swap-state'

export type SwapFlowProps = {
  /** The signed-in payee's embedded-wallet address: it pays and it receives. */
  address: string
  chains: readonly RoutingChain[]
  chainsError: string | null
  /** False once the wallet session ended: the steps before sending ask to sign in again. */
  isSessionLive: boolean
  onClose: () => void
  onSignInAgain: () => void
}

/** The chain whose balances the step shows: the one being picked, else the source's. */
function getBalanceChainId(state: SwapState): number | null {
  switch (state.step) {
    case 'source':
    case 'target':
      return state.pick.chainId
    case 'amount':
    case 'confirm':
    case 'processing':
    case 'success':
      return state.source.chainId
    case 'failure':
      return null
    default: {
      const unknownStep: never = state
      return unknownStep
    }
  }
}

/**
 * The Self Swap's steps inside wagmi (docs/product.md#self-swap): one reducer (`reduceSwap`) over
 * the source, target and amount picks and the pay modal's own confirm, processing and result steps,
 * which run unchanged against the embedded wallet's connector. The route pays the payee's own
 * address, so the swap is verified on chain like any payment.
 */
export function SwapFlow({
  address,
  chains,
  chainsError,
  isSessionLive,
  onClose,
  onSignInAgain,
}: SwapFlowProps) {
  const [state, dispatch] = useReducer(reduceSwap, initialSwapState)
  const balanceChainId = getBalanceChainId(state)
  const pickChainId = state.step === 'source' || state.step === 'target' ? state.pick.chainId : null
  const {
    tokensQuery,
    chainTokens,
    getBalance,
    getTotalUsd,
    getNativeUsdPrice,
    findCurrentToken,
    parseAmount,
  } = usePaymentChoice({ chains, chainId: balanceChainId, address, isEnabled: true })
  const source = state.step === 'source' || state.step === 'failure' ? null : state.source
  // The picked chain is the balances' chain on the pick steps. The target never lists the source token itself.
  const pickTokens = useMemo(() => {
    const offered = pickChainId === null ? [] : chainTokens
    return source === null ? offered : offered.filter((token) => !isSameToken(token, source))
  }, [chainTokens, pickChainId, source])
  const totalUsd = getTotalUsd(pickTokens)
  const chainName = (chainId: number) => getChainName(chains, chainId)
  const current = findCurrentToken

  const goBack = useCallback(() => {
    if (state.step === 'processing') return
    if (state.step === 'source' || state.step === 'success' || state.step === 'failure') {
      onClose()
      return
    }
    dispatch({ type: 'back' })
  }, [state.step, onClose])
  const onSucceeded = useCallback(() => dispatch({ type: 'succeeded' }), [])
  const onFailed = useCallback((message: string | null) => dispatch({ type: 'failed', message }), [])
  useEffect(() => {
    dispatch({ type: 'open' })
  }, [])

  const isBeforeSending =
    state.step === 'source' || state.step === 'target' || state.step === 'amount' || state.step === 'confirm'
  return (
    <PayDialogShell
      title={swapStepTitles[state.step]}
      onDismiss={goBack}
      onBack={
        state.step === 'target' || state.step === 'amount' || state.step === 'confirm' ? goBack : undefined
      }
      onClose={state.step === 'processing' ? undefined : onClose}
    >
      {isBeforeSending && !isSessionLive ? <SessionEndedPanel onSignInAgain={onSignInAgain} /> : renderStep()}
    </PayDialogShell>
  )

  function renderStep() {
    switch (state.step) {
      case 'source':
      case 'target':
        return (
          <ChainTokenStep
            chains={chains}
            tokens={pickTokens}
            isLoading={tokensQuery.isPending}
            error={chainsError ?? tokensQuery.data?.error ?? null}
            getBalance={getBalance}
            getNativeUsdPrice={getNativeUsdPrice}
            totalUsd={totalUsd}
            tab={state.pick.tab}
            selectedChainId={state.pick.chainId}
            selectedTokenAddress={state.pick.token?.address ?? null}
            switchingChainId={null}
            onTabChange={(tab) => dispatch({ type: 'setTab', tab })}
            onSelectChain={(chain) => dispatch({ type: 'selectChain', chainId: chain.chainId })}
            onSelectToken={(token) => dispatch({ type: 'selectToken', token })}
            onContinue={() => dispatch({ type: 'continue' })}
          />
        )
      case 'amount': {
        const token = current(state.source)
        return (
          <AmountStep
            token={{ symbol: token.symbol, decimals: token.decimals, usdPrice: token.usdPrice ?? null }}
            networkName={chainName(token.chainId)}
            balance={getBalance(token)}
            text={state.amount.text}
            unit={state.amount.unit}
            onChange={(text, unit) => dispatch({ type: 'setAmount', text, unit })}
            onBack={goBack}
            onNext={() => dispatch({ type: 'next' })}
          />
        )
      }
      case 'confirm': {
        const token = current(state.source)
        const target = current(state.target)
        const amount = parseAmount(state.amount, token)
        // No link: the server quotes a route without one only into the signed-in user's own wallet.
        const receiver: PayLinkSummary = {
          id: null,
          alias: 'Your wallet',
          receiver_address: address,
          chain: chains.find((chain) => chain.chainId === target.chainId)?.networkIdentifier ?? '',
          chain_id: target.chainId,
          token_name: target.symbol,
          token_address: target.address,
        }
        return (
          <ConfirmPaymentStep
            link={receiver}
            token={token}
            amount={amount}
            balance={getBalance(token)}
            linkToken={target}
            receives={`${target.symbol} on ${chainName(target.chainId)}`}
            getChainName={chainName}
            sourceChainContracts={getChainContracts(chains, token.chainId)}
            onBack={goBack}
            onSubmitted={(payment) => dispatch({ type: 'submitted', payment })}
            onReceiptPosted={(txHash) => dispatch({ type: 'receiptPosted', txHash })}
            confirmLabel="Confirm & Swap"
          />
        )
      }
      case 'processing':
        return (
          <TrackPaymentStep
            payment={state.payment}
            getChainName={chainName}
            onSucceeded={onSucceeded}
            onFailed={onFailed}
          />
        )
      case 'success': {
        const token = state.source
        const amount = parseAmountText(state.amount.text, state.amount.unit, {
          decimals: token.decimals,
          usdPrice: token.usdPrice ?? null,
        })
        const sent =
          amount === undefined
            ? token.symbol
            : `${formatTokenAmount(amount, token.decimals, 6)} ${token.symbol}`
        return (
          <SuccessStep
            heading="Swap completed"
            summary={`You swapped ${sent} for ${state.target.symbol} on ${chainName(state.target.chainId)}.`}
            onClose={onClose}
          />
        )
      }
      case 'failure':
        return (
          <FailureStep
            statusText="Your swap failed. You can close this window."
            detail={state.failureMessage}
            onClose={onClose}
          />
        )
      default: {
        const unknownStep: never = state
        return unknownStep
      }
    }
  }
}
