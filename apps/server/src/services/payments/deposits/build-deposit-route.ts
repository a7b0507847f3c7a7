import { depositFactoryAbi } from '@quicklinks/contracts/generated/deposit-factory'
import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { isNativeTokenAddress, nativeTokenAddress, zeroAddress } from '@quicklinks/core/native-token-address'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { decodeFunctionData, encodeFunctionData, getAddress, type Hex } from 'viem'
import type { Deposit, DepositTransfer, Link } from '../../../db/schema.ts'
import { assertRoutePaysInvoice } from '../route/assert-route-pays-invoice.ts'
import { createIntentId } from '../route/build-route.ts'
import { quoteRoute } from '../route/quote-route.ts'
import { insertRouteIntent } from '../route/route-intents-repository.ts'
import type { RouteAction, RoutingProvider, TransactionRequest } from '../route/routing-provider.ts'
import { readDepositTerms } from './deposit-terms.ts'
import type { DepositSetup } from './get-deposit-setup.ts'

/** The slippage (percent) a deposit's route is quoted with, as the pay modal's default. */
const depositSlippage = 1
/** Gas on top of the route's own limit for deploying the forwarder (about 1.2 M) and its approval. */
const forwarderGas = 1_500_000n

/** A deposit transfer's route: its intent id and the factory call that forwards it. */
export type DepositRoute = { intentId: `0x${string}`; to: `0x${string}`; data: Hex; gas: bigint }

/** The quote of what a fixed-amount deposit holds comes to less than the link's amount: nothing is stored. */
export class DepositShortError extends Error {
  constructor(
    /** What the route would deliver, in the link token's smallest units. */
    readonly toAmount: bigint,
    readonly wantedAmount: bigint,
  ) {
    super(`the deposit's route would deliver ${toAmount} of ${wantedAmount}`)
    this.name = 'DepositShortError'
  }
}

/**
 * Quotes a transfer into a deposit address like a wallet payment of its link (the same provider,
 * `quoteRoute`, from the deposit address as the payer) and stores it as a route intent, so the
 * tracker and the relayer follow and verify it like any payment. The intent's transaction is the
 * operator's DepositFactory.deployAndForward call carrying the quote's parameters: the forwarder
 * rebuilds exactly the quoted PayRouter call from them and its own terms, and `from` names the
 * operator as its sender. Throws the provider's AppErrors (a token it cannot route, no liquidity),
 * assertRoutePaysInvoice's (an invoice that takes no more payments), and when the quote is not a
 * PayRouter call of the deposit's route. `amount` is what is forwarded (the transfer's own, or with
 * waiting transfers of the same token it adds up to); with `wantedAmount` (a fixed-amount link) a
 * quote that delivers less throws DepositShortError before anything is stored.
 */
export async function buildDepositRoute(
  context: { db: Database; provider: RoutingProvider; setup: DepositSetup; nowMs: number },
  deposit: Deposit,
  link: Link,
  transfer: DepositTransfer,
  amounts: { amount: bigint; wantedAmount: bigint | null },
): Promise<DepositRoute> {
  const { db, provider, setup } = context
  const terms = readDepositTerms(deposit)
  const fromToken = isNativeTokenAddress(transfer.token) ? nativeTokenAddress : getAddress(transfer.token)
  const toToken = isNativeTokenAddress(link.tokenAddress) ? nativeTokenAddress : getAddress(link.tokenAddress)
  const request = {
    linkId: link.id,
    invoiceId: deposit.invoiceId,
    toChain: link.chainId,
    toToken,
    toAddress: getAddress(link.receiverAddress),
  }
  await assertRoutePaysInvoice(db, request, context.nowMs)
  const intentId = createIntentId()
  const fromAddress = getAddress(deposit.address)
  const { amount, wantedAmount } = amounts
  const { quote } = await quoteRoute(
    provider,
    {
      fromChainId: transfer.chainId,
      toChainId: link.chainId,
      fromToken,
      toToken,
      fromAddress,
      toAddress: request.toAddress,
      slippage: depositSlippage,
      intentId,
    },
    { fromAmount: amount },
  )
  if (wantedAmount !== null && quote.toAmount < wantedAmount)
    throw new DepositShortError(quote.toAmount, wantedAmount)
  const route = readForwardRoute(quote.transactionRequest.data as Hex, intentId, terms.receiver)
  const data = encodeFunctionData({
    abi: depositFactoryAbi,
    functionName: 'deployAndForward',
    args: [terms, isNativeTokenAddress(fromToken) ? zeroAddress : fromToken, amount, route],
  })
  const gas = BigInt(quote.transactionRequest.gasLimit ?? '500000') + forwarderGas
  const transactionRequest = {
    to: setup.factory,
    target: setup.factory,
    data,
    value: '0',
    gasLimit: gas.toString(),
    // The route's transaction is the operator's, not the payer's (match-source-transaction.ts).
    depositOperator: setup.operator.address,
  }
  await insertRouteIntent(db, {
    id: intentId,
    provider: provider.name,
    linkId: link.id,
    invoiceId: deposit.invoiceId,
    fromChainId: transfer.chainId,
    toChainId: link.chainId,
    fromToken: fromToken.toLowerCase(),
    toToken: toToken.toLowerCase(),
    fromAmount: amount.toString(),
    toAmount: quote.toAmount.toString(),
    toAmountMin: quote.toAmountMin.toString(),
    fromAddress: fromAddress.toLowerCase(),
    toAddress: request.toAddress.toLowerCase(),
    slippage: depositSlippage,
    transactionRequest: transactionRequest as TransactionRequest & Record<string, unknown>,
    actions: quote.actions satisfies RouteAction[],
    providerData: quote.providerData,
    estimatedDurationMs: quote.estimatedDurationMs,
    requestId: null,
  })
  return { intentId, to: setup.factory, data, gas }
}

/**
 * The forwarder's route parameters from the quoted PayRouter call: its path, minimums and
 * deadline. Throws when the quote is not `pay`, `swapAndPay` or `deposit` of this intent to the
 * deposit's receiver (the forwarder would pay nobody else anyway; this catches a provider mix-up).
 */
function readForwardRoute(data: Hex, intentId: `0x${string}`, receiver: `0x${string}`) {
  const call = decodeFunctionData({ abi: payRouterAbi, data })
  const route = { intentId, path: [] as `0x${string}`[], minAmountOut: 0n, minEscrowAmount: 0n, deadline: 0n }
  let paid: { intentId: string; receiver: string }
  if (call.functionName === 'pay') {
    const [id, , , to] = call.args
    paid = { intentId: id, receiver: to }
  } else if (call.functionName === 'swapAndPay') {
    const [id, , , path, , amountOutMin, to, deadline] = call.args
    paid = { intentId: id, receiver: to }
    Object.assign(route, { path: [...path], minAmountOut: amountOutMin, deadline })
  } else if (call.functionName === 'deposit') {
    const [id, , , path, minEscrowAmount, , , minAmountOut, to, fillDeadline] = call.args
    paid = { intentId: id, receiver: to }
    Object.assign(route, { path: [...path], minAmountOut, minEscrowAmount, deadline: BigInt(fillDeadline) })
  } else {
    throw new Error(`the deposit's quote calls PayRouter.${call.functionName}, not a payment`)
  }
  if (paid.intentId !== intentId || getAddress(paid.receiver) !== receiver) {
    throw new Error("the deposit's quote does not pay its intent to its receiver")
  }
  return route
}
