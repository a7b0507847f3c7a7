import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { buildViemChain } from '@quicklinks/devnet/build-viem-chain'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { asc, eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { createTestClient, erc20Abi, type Hash, http, parseEventLogs } from 'viem'
import { type RelayerDeposit, relayerDeposits, routeIntents } from '../src/db/schema.ts'
import { getPayRouterAddressOrThrow } from '../src/services/payments/providers/local/payrouter/get-pay-router-address-or-throw.ts'
import {
  createRelayerWorker,
  type RelayerWorker,
} from '../src/services/payments/providers/local/relayer/create-relayer-worker.ts'
import { getRelayerAccount } from '../src/services/payments/providers/local/relayer/get-relayer-account.ts'
import { getDevnetRelayerPrivateKey, type PaymentDevnet, type TestRoute } from './payment-test-kit.ts'

/** What the local provider stored for a cross-chain quote, as the relayer matches deposits against it. */
export type TestDepositQuote = {
  fillDeadline: number
  minEscrowAmount: bigint
  escrowToken: `0x${string}`
  toAmountMin: bigint
  receiver: `0x${string}`
  toToken: `0x${string}`
}

/** Reads the stored quote of a route intent (provider_data and the minimum out). */
export async function readTestDepositQuote(
  database: DatabaseClient,
  intentId: string,
): Promise<TestDepositQuote> {
  const [intent] = await database.db.select().from(routeIntents).where(eq(routeIntents.id, intentId))
  if (!intent) throw new Error(`no route intent ${intentId}`)
  const data = intent.providerData as {
    fillDeadline: number
    minEscrowAmount: string
    escrowToken: `0x${string}`
  }
  return {
    fillDeadline: data.fillDeadline,
    minEscrowAmount: BigInt(data.minEscrowAmount),
    escrowToken: data.escrowToken,
    toAmountMin: BigInt(intent.toAmountMin),
    receiver: intent.toAddress as `0x${string}`,
    toToken: intent.toToken as `0x${string}`,
  }
}

/**
 * A relayer worker on the test devnet, run by hand (`runOnce`) so tests decide when rounds
 * happen. Every wait it schedules is due at once (`maxRetryDelayMs: 0`); close it after the test
 * to give its writer lock back.
 */
export function createTestRelayer(
  devnet: PaymentDevnet,
  database: DatabaseClient,
  logger: FastifyBaseLogger,
  confirmations: Readonly<Record<number, number>> = {},
): RelayerWorker {
  const account = getRelayerAccount({ relayerPrivateKey: getDevnetRelayerPrivateKey(), devMode: false })
  if (!account) throw new Error('no relayer account')
  return createRelayerWorker({
    db: database.db,
    config: {
      devnetDeploymentFile: devnet.deploymentFile,
      rpcUrls: {},
      workerIntervalMs: 100,
      confirmations,
      defaultConfirmations: 0,
    },
    account,
    logger,
    maxRetryDelayMs: 0,
  })
}

/** Runs a round of each lane in turn, `rounds` times. */
export async function runTestRelayer(
  relayer: RelayerWorker,
  lanes: readonly number[],
  rounds = 1,
): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const lane of lanes) await relayer.runOnce(String(lane))
  }
}

/** Anvil's test methods (mining, time travel, reorgs) on one devnet chain. */
export function getTestChainControl(devnet: PaymentDevnet, chainId: number) {
  const chain = devnet.chain(chainId)
  const client = createTestClient({
    mode: 'anvil',
    chain: buildViemChain(chain),
    transport: http(chain.rpcUrl),
  })
  return {
    mine: (blocks = 1) => client.mine({ blocks }),
    /** Moves the chain's clock forward and mines a block with the new time. */
    increaseTime: async (seconds: number) => {
      await client.increaseTime({ seconds })
      await client.mine({ blocks: 1 })
    },
    /** Replaces the last `depth` blocks with empty ones (anvil_reorg): their transactions are gone. */
    reorg: (depth: number) => client.request({ method: 'anvil_reorg', params: [depth, []] } as never),
    /** The timestamp of the latest block. */
    getTime: async () => Number((await devnet.publicClient(chainId).getBlock()).timestamp),
  }
}

export type TestDepositArgs = {
  chainId: number
  payerIndex: number
  intentId: Hash
  tokenIn: `0x${string}`
  amountIn: bigint
  minEscrowAmount: bigint
  destinationChainId: number
  destinationToken: `0x${string}`
  minAmountOut: bigint
  receiver: `0x${string}`
  fillDeadline: number
}

/** A `deposit` sent by hand (approving the token first): whatever a payer, honest or not, may send. */
export async function sendTestDeposit(
  devnet: PaymentDevnet,
  args: TestDepositArgs,
): Promise<{ txHash: Hash; orderKey: Hash; blockNumber: bigint }> {
  const payRouter = getPayRouterAddressOrThrow(devnet.chain(args.chainId))
  const wallet = devnet.wallet(args.chainId, args.payerIndex)
  const client = devnet.publicClient(args.chainId)
  const approval = await wallet.writeContract({
    address: args.tokenIn,
    abi: erc20Abi,
    functionName: 'approve',
    args: [payRouter, args.amountIn],
  })
  await client.waitForTransactionReceipt({ hash: approval })
  const txHash = await wallet.writeContract({
    address: payRouter,
    abi: payRouterAbi,
    functionName: 'deposit',
    args: [
      args.intentId,
      args.tokenIn,
      args.amountIn,
      [],
      args.minEscrowAmount,
      BigInt(args.destinationChainId),
      args.destinationToken,
      args.minAmountOut,
      args.receiver,
      BigInt(args.fillDeadline),
    ],
  })
  return readDeposit(devnet, args.chainId, txHash)
}

/** Approves the route's spender and sends the route's transaction as the payer's wallet would. */
export async function payTestRoute(
  devnet: PaymentDevnet,
  chainId: number,
  payerIndex: number,
  route: TestRoute['route'],
  token: `0x${string}`,
  amount: bigint,
): Promise<{ txHash: Hash; orderKey: Hash; blockNumber: bigint }> {
  const wallet = devnet.wallet(chainId, payerIndex)
  const client = devnet.publicClient(chainId)
  if (route.spender) {
    const approval = await wallet.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [route.spender, amount],
    })
    await client.waitForTransactionReceipt({ hash: approval })
  }
  const txHash = await wallet.sendTransaction({
    to: route.transactionRequest.to,
    data: route.transactionRequest.data,
    value: BigInt(route.transactionRequest.value),
    gas: BigInt(route.transactionRequest.gasLimit),
  })
  return readDeposit(devnet, chainId, txHash)
}

async function readDeposit(
  devnet: PaymentDevnet,
  chainId: number,
  txHash: Hash,
): Promise<{ txHash: Hash; orderKey: Hash; blockNumber: bigint }> {
  const receipt = await devnet.publicClient(chainId).waitForTransactionReceipt({ hash: txHash })
  if (receipt.status !== 'success') throw new Error(`deposit ${txHash} reverted`)
  const [event] = parseEventLogs({ abi: payRouterAbi, eventName: 'Deposited', logs: receipt.logs })
  if (!event) throw new Error(`no Deposited event in ${txHash}`)
  return { txHash, orderKey: event.args.orderKey, blockNumber: receipt.blockNumber }
}

/** Every PayRouter `Filled` event of an intent on a chain (tests read the whole short devnet). */
export async function getTestFills(devnet: PaymentDevnet, chainId: number, intentId: Hash) {
  return devnet.publicClient(chainId).getContractEvents({
    address: getPayRouterAddressOrThrow(devnet.chain(chainId)),
    abi: payRouterAbi,
    eventName: 'Filled',
    args: { intentId },
    fromBlock: 'earliest',
    strict: true,
  })
}

/** Every PayRouter `Settled` event of an intent on a chain. */
export async function getTestSettlements(devnet: PaymentDevnet, chainId: number, intentId: Hash) {
  return devnet.publicClient(chainId).getContractEvents({
    address: getPayRouterAddressOrThrow(devnet.chain(chainId)),
    abi: payRouterAbi,
    eventName: 'Settled',
    args: { intentId },
    fromBlock: 'earliest',
    strict: true,
  })
}

/** PayRouter's escrow state of an order: 0 none, 1 open, 2 settled, 3 refunded. */
export async function getTestEscrowState(
  devnet: PaymentDevnet,
  chainId: number,
  orderKey: Hash,
): Promise<number> {
  return devnet.publicClient(chainId).readContract({
    address: getPayRouterAddressOrThrow(devnet.chain(chainId)),
    abi: payRouterAbi,
    functionName: 'depositState',
    args: [orderKey],
  })
}

/** The relayer's rows of an intent, oldest first. */
export async function readTestDeposits(
  database: DatabaseClient,
  intentId: string,
): Promise<RelayerDeposit[]> {
  return database.db
    .select()
    .from(relayerDeposits)
    .where(eq(relayerDeposits.intentId, intentId.toLowerCase()))
    .orderBy(asc(relayerDeposits.createdAt))
}

/** The relayer's row of one order. */
export async function readTestDeposit(database: DatabaseClient, orderKey: string): Promise<RelayerDeposit> {
  const [row] = await database.db
    .select()
    .from(relayerDeposits)
    .where(eq(relayerDeposits.orderKey, orderKey.toLowerCase()))
  if (!row) throw new Error(`no relayer row for order ${orderKey}`)
  return row
}

/**
 * Reads again after each round of the background workers (`nextRound`, see createWorkerRounds)
 * until `read` returns something; throws when it still has not after `timeoutMs`.
 */
export async function waitForTestValue<T>(
  read: () => Promise<T | undefined>,
  what: string,
  nextRound: () => Promise<void>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    // Listening before the read: a round that ends during the read is not missed.
    const round = nextRound()
    const value = await read()
    if (value !== undefined) return value
    await round
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`)
}
