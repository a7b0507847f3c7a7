import type { ChainContracts, RoutingToken } from '@quicklinks/core/api/routing'
import { isNativeTokenAddress } from '@quicklinks/core/native-token-address'
import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import { type Address, erc20Abi, maxUint256 } from 'viem'
import { useConfig, useConnection } from 'wagmi'
import { sendTransaction, waitForTransactionReceipt, writeContract } from 'wagmi/actions'
import { toast } from '../../ui/use-toast'
import {
  canConfirmPayment,
  getBlockingMessage,
  getConfirmMessages,
  isApprovalNeeded,
} from './confirm-messages'
import { ConfirmStep } from './confirm-step'
import { buildFixedRouteInput, readFixedQuote } from './fixed-amount'
import { formatTokenAmount, getUsdValue } from './pay-amount'
import type { PayLinkSummary } from './pay-link-summary'
import type { SubmittedPayment } from './pay-modal-state'
import { type RouteInput, toWalletTransaction } from './route-builder'
import { selectSpender } from './spender'
import { postRouteReceipt } from './transaction-record'
import { useEnsureChain } from './use-ensure-chain'
import { useRouteState } from './use-route-state'
import { useToastOnce } from './use-toast-once'
import {
  describeCarriedApproval,
  sendWithCarriedApproval,
  useTokenPaymentMethod,
} from './use-token-payment-method'
import { allowanceQueryOptions } from './wallet-balances'
import { describePaymentError } from './wallet-errors'

export type ConfirmPaymentStepProps = {
  link: PayLinkSummary
  /** The token the payer pays with; its chain is the source chain. */
  token: RoutingToken
  /** The entered amount in the token's smallest unit; undefined when the text is no amount. */
  amount: bigint | undefined
  /** The payer's balance of `token`; null until it has loaded. */
  balance: bigint | null
  /** The link's token as the catalogue lists it, for the quote's decimals. */
  linkToken: RoutingToken | undefined
  /** 'USDC on Base': what the receiver gets. */
  receives: string
  getChainName: (chainId: number) => string
  /** The routing provider's contracts on the source chain (its chain record): the spender's fallbacks. */
  sourceChainContracts?: ChainContracts | undefined
  onBack: () => void
  onSubmitted: (payment: SubmittedPayment) => void
  /** POST …/receipt for the transaction `txHash` settled. */
  onReceiptPosted: (txHash: string) => void
  onFailure?: (() => void) | undefined
  /** The confirm button's label (default 'Confirm & Pay'). */
  confirmLabel?: string | undefined
  /**
   * An invoice or a link with an amount: the route asks for `toAmount` (exact output) and the
   * amount sent is the route's; `amount` is then ignored. `dueText` is '12.5 USDC'.
   */
  fixed?: { toAmount: bigint | undefined; invoiceId: string | null; dueText: string } | undefined
}

/**
 * Step 3 'Confirm Payment' with its work: builds the route (rebuilt every 60 s), switches the wallet
 * to the source chain, reads and approves the allowance (or carries the approval in an ERC-5792
 * batch or a permit), and sends the route's transaction. A
 * rejection or an error before the transaction is sent toasts 'Payment failed' and stays here.
 */
export function ConfirmPaymentStep(props: ConfirmPaymentStepProps) {
  const { link, token, balance, fixed } = props
  const config = useConfig()
  const connection = useConnection()
  const address = connection.address
  const isConnected =
    address !== undefined && (connection.status === 'connected' || connection.status === 'reconnecting')
  const { ensureChain } = useEnsureChain()
  const isNative = isNativeTokenAddress(token.address)
  const enteredAmount = fixed === undefined ? props.amount : undefined
  const routeInput: RouteInput | null = fixed
    ? buildFixedRouteInput({ link, token, address, toAmount: fixed.toAmount, invoiceId: fixed.invoiceId })
    : address !== undefined &&
        enteredAmount !== undefined &&
        enteredAmount > 0n &&
        link.token_address !== null
      ? {
          fromChain: token.chainId,
          toChain: link.chain_id,
          fromToken: token.address,
          toToken: link.token_address,
          fromAmount: enteredAmount,
          fromAddress: address,
          toAddress: link.receiver_address,
          ...(link.id === null ? {} : { linkId: link.id }),
        }
      : null
  const { route: currentRoute, secondsLeft } = useRouteState(true, routeInput)
  const fixedQuote = currentRoute.status === 'ready' ? readFixedQuote(currentRoute.route.estimate) : null
  // With a fixed amount the payer sends what the exact-output route asks for.
  const amount = fixed === undefined ? enteredAmount : fixedQuote?.fromAmount

  const spender =
    currentRoute.status === 'ready' ? selectSpender(currentRoute.route, props.sourceChainContracts) : null
  const fromChainId = token.chainId
  const tokenAddress = token.address as `0x${string}`
  useEffect(() => {
    if (isConnected && connection.chainId !== fromChainId && fromChainId !== 0) {
      ensureChain(fromChainId).catch((error: unknown) => console.warn('Chain switch failed', error))
    }
  }, [isConnected, connection.chainId, fromChainId, ensureChain])
  const owner = address as Address
  const allowanceQuery = useQuery({
    ...allowanceQueryOptions(config, {
      chainId: fromChainId,
      token: tokenAddress,
      owner,
      spender: spender as Address,
    }),
    enabled: !isNative && address !== undefined && spender !== null && connection.chainId === fromChainId,
  })
  const allowance = allowanceQuery.data ?? null
  // A wallet with atomic ERC-5792 batches, or a permit token on a route that takes it, pays
  // without the approval step (docs/product.md#one-confirmation).
  const paymentMethod = useTokenPaymentMethod({
    chainId: fromChainId,
    payer: address,
    token,
    route: currentRoute.status === 'ready' ? currentRoute.route : null,
    isEnabled: !isNative && connection.chainId === fromChainId,
    connectorId: connection.connector?.uid,
  })
  const isApprovalCarried =
    paymentMethod !== 'approve' && paymentMethod !== null && isApprovalNeeded(isNative, amount, allowance)
  const [approving, setApproving] = useState<'exact' | 'max' | null>(null)
  const [isConfirming, setConfirming] = useState(false)
  const isAmountQuoted = fixed !== undefined
  const messages = getConfirmMessages({
    amount,
    balance,
    isNative,
    spender,
    route: currentRoute,
    isAmountQuoted,
  })
  const canConfirm = canConfirmPayment({
    isAmountQuoted,
    amount,
    balance,
    isNative,
    spender,
    route: currentRoute,
    allowance,
    isApproving: approving !== null,
    isCheckingAllowance: allowanceQuery.isFetching,
    isApprovalCarried,
  })
  const showCannotConfirm = useCallback(
    (message: string) =>
      toast({ title: 'Cannot confirm payment', description: message, variant: 'destructive' }),
    [],
  )
  useToastOnce(getBlockingMessage(messages), showCannotConfirm)

  const failBeforeSend = (error: unknown) => {
    console.warn('Payment failed before sending', error)
    toast({ title: 'Payment failed', description: describePaymentError(error), variant: 'destructive' })
    props.onFailure?.()
  }

  const approve = async (kind: 'exact' | 'max') => {
    if (spender === null || amount === undefined) return
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
      const hash =
        isApprovalCarried && spender !== null && amount !== undefined && paymentMethod !== null
          ? await sendWithCarriedApproval(config, paymentMethod, {
              chainId: fromChainId,
              payer: address,
              token: tokenAddress,
              permit: token.permit,
              spender,
              amount,
              transactionRequest: currentRoute.route.transactionRequest,
            })
          : await sendTransaction(config, {
              chainId: fromChainId,
              ...toWalletTransaction(currentRoute.route.transactionRequest),
            })
      props.onSubmitted({
        intentId: currentRoute.intentId,
        txHash: hash,
        fromChainId,
        payer: address,
        submittedAtMs: Date.now(),
        isReceiptPosted: false,
      })
      // Step 4's first poll waits for this: the server starts tracking inside the receipt post.
      void postRouteReceipt(currentRoute.intentId, hash).then(() => props.onReceiptPosted(hash))
    } catch (error) {
      // A rejection or an error before the transaction is sent stays on step 3
      // (docs/product.md#approval-and-spender).
      failBeforeSend(error)
    } finally {
      setConfirming(false)
    }
  }

  // The quote in the link's token, when the route has one and the token's decimals are known; with a
  // fixed amount, the amount due and the extra the quote includes over it.
  const excess = fixedQuote?.excess ?? null
  const quotedReceives = fixed
    ? `${fixed.dueText} on ${props.getChainName(link.chain_id)}${
        excess === null || props.linkToken === undefined
          ? ''
          : ` (includes about ${formatTokenAmount(excess, props.linkToken.decimals, 6)} extra to cover price movement)`
      }`
    : currentRoute.status === 'ready' &&
        /^\d+$/.test(currentRoute.route.estimate.toAmount) &&
        props.linkToken !== undefined
      ? `≈ ${formatTokenAmount(BigInt(currentRoute.route.estimate.toAmount), props.linkToken.decimals, 6)} ${props.receives}`
      : props.receives

  return (
    <ConfirmStep
      amount={amount ?? 0n}
      token={token}
      usdValue={
        amount === undefined
          ? undefined
          : getUsdValue(amount, { decimals: token.decimals, usdPrice: token.usdPrice ?? null })
      }
      networkName={props.getChainName(token.chainId)}
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
      approvalNote={
        isApprovalCarried && paymentMethod !== null ? describeCarriedApproval(paymentMethod) : null
      }
      onApprove={(kind) => void approve(kind)}
      onBack={props.onBack}
      onConfirm={() => void confirm()}
      confirmLabel={props.confirmLabel}
    />
  )
}
