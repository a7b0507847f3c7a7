/**
 * x402 benchmark (issue 34), run by `npm run bench` (or `node --import tsx
 * apps/server/bench/x402-bench.ts`). On the payment devnet with the app listening on a real port
 * and its workers running (as the payment tests run it), the stock client (`wrapFetchWithPayment`
 * from @x402/fetch, @x402/evm's exact scheme, viem accounts) pays a 1 USDC Base link:
 *   - 402 → signed → 200 from Base (same chain), median of 20;
 *   - 402 → signed → 200 from Avalanche (into the deposit address, answered once the deposit
 *     watcher has routed it or after 5 s), median of 20;
 *   - 50 agents at once (fresh keys holding only USDC, no gas): all must settle, none twice.
 * No latency target (the issue asks for the numbers); exits 1 when a payment fails or is settled
 * twice. X402_BENCH_SAMPLES overrides the 20, X402_BENCH_AGENTS the 50.
 */
import type { AddressInfo } from 'node:net'
import { availableParallelism, loadavg } from 'node:os'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { x402Client } from '@x402/core/client'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { decodePaymentResponseHeader, wrapFetchWithPayment } from '@x402/fetch'
import { eq } from 'drizzle-orm'
import { erc20Abi, type LocalAccount, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { buildApp } from '../src/app.ts'
import { migrate } from '../src/db/migrate.ts'
import { routeIntents } from '../src/db/schema.ts'
import { createTestConfig } from '../test/create-test-config.ts'
import { createDepositLink } from '../test/deposit-test-kit.ts'
import { getDevnetRelayerPrivateKey, startPaymentDevnet } from '../test/payment-test-kit.ts'
import { printLatencyTable, summarizeLatencies } from './lib/latency-table.ts'

const samples = Number(process.env.X402_BENCH_SAMPLES ?? 20)
const agentCount = Number(process.env.X402_BENCH_AGENTS ?? 50)
const receiverIndex = 2
const payerIndex = 4
const funderIndex = 3
const amount = parseUnits('1', 6)

const devnet = await startPaymentDevnet()
const database = await createDatabaseClient({ kind: 'pglite' })
await migrate(database)
const config = createTestConfig({
  devMode: true,
  devnetDeploymentFile: devnet.deploymentFile,
  relayerPrivateKey: getDevnetRelayerPrivateKey(),
  workerIntervalMs: 100,
  rateLimitMax: 1_000_000_000,
})
const app = await buildApp(config, { database, logger: createLogger('silent'), startWorkers: true })
const failures: string[] = []
try {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const receiver = devnet.account(receiverIndex).address
  const link = await createDepositLink(database.db, {
    receiver,
    chainId: 8453,
    token: devnet.token(8453, 'USDC'),
    symbol: 'USDC',
    amount: '1',
  })
  const url = `${origin}/x402/pay/${link.slug}`

  /** The stock client of `account`, paying on `chainId` only, allowed the devnet's USDC there. */
  const createPayingFetch = (account: LocalAccount, chainId: number) => {
    const client = new x402Client()
    registerExactEvmScheme(client, { signer: account, networks: [`eip155:${chainId}`] })
    client.setSpendControls({
      allowedAssets: [
        {
          network: `eip155:${chainId}`,
          asset: devnet.token(chainId, 'USDC'),
          maxAmountPerPayment: '2000000',
        },
      ],
    })
    return wrapFetchWithPayment(fetch, client)
  }

  /** One payment, 402 to 200; answers its ms and settled transaction, or records a failure. */
  const pay = async (paidFetch: typeof fetch, label: string) => {
    const started = performance.now()
    try {
      const response = await paidFetch(url)
      const body = await response.text()
      const ms = performance.now() - started
      if (response.status !== 200) {
        failures.push(`${label}: ${response.status} ${body.slice(0, 200)}`)
        return undefined
      }
      const settled = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE') ?? '')
      return { ms, transaction: settled.transaction }
    } catch (error) {
      failures.push(`${label}: ${error instanceof Error ? error.message : String(error)}`)
      return undefined
    }
  }

  const rows = []
  for (const [chainId, operation] of [
    [8453, 'same chain (Base → Base)'],
    [43114, 'cross chain (Avalanche → Base)'],
  ] as const) {
    const paidFetch = createPayingFetch(devnet.account(payerIndex), chainId)
    await pay(paidFetch, `${operation} warm-up`)
    const latencies: number[] = []
    let failed = 0
    for (let index = 0; index < samples; index++) {
      const result = await pay(paidFetch, `${operation} #${index}`)
      if (result) latencies.push(result.ms)
      else failed += 1
    }
    rows.push(summarizeLatencies(operation, latencies, failed))
  }

  // 50 agents with fresh keys: USDC only (EIP-3009 needs no gas from the payer).
  const agents = Array.from({ length: agentCount }, () => privateKeyToAccount(generatePrivateKey()))
  const funder = devnet.wallet(8453, funderIndex)
  for (const agent of agents) {
    const hash = await funder.writeContract({
      address: devnet.token(8453, 'USDC'),
      abi: erc20Abi,
      functionName: 'transfer',
      args: [agent.address, amount * 2n],
    })
    await devnet.publicClient(8453).waitForTransactionReceipt({ hash })
  }
  const before = await devnet.balanceOf(8453, devnet.token(8453, 'USDC'), receiver)
  const burstStarted = performance.now()
  const results = await Promise.all(
    agents.map((agent, index) => pay(createPayingFetch(agent, 8453), `agent ${index}`)),
  )
  const burstMs = performance.now() - burstStarted
  const settled = results.filter((result) => result !== undefined)
  rows.push(
    summarizeLatencies(
      `${agentCount} agents at once`,
      settled.map((result) => result.ms),
      agentCount - settled.length,
    ),
  )
  printLatencyTable('x402: 402 → paid → 200 on the devnet (1 USDC Base link)', rows)

  const transactions = new Set(settled.map((result) => result.transaction.toLowerCase()))
  const received = (await devnet.balanceOf(8453, devnet.token(8453, 'USDC'), receiver)) - before
  let records = 0
  for (const transaction of transactions) {
    records += (
      await database.db.select().from(routeIntents).where(eq(routeIntents.sourceTxHash, transaction))
    ).length
  }
  const isBurstMet =
    settled.length === agentCount &&
    transactions.size === agentCount &&
    records === agentCount &&
    received === amount * BigInt(agentCount)
  console.log(
    `${agentCount} agents at once: ${settled.length} answered 200 in ${(burstMs / 1000).toFixed(1)} s, ` +
      `${transactions.size} transactions, ${records} records, the receiver got ${received} units ` +
      `(${amount * BigInt(agentCount)} expected): ${isBurstMet ? 'all settled, none twice' : 'MISSED'}`,
  )
  if (!isBurstMet) failures.push('the agents burst did not settle each payment exactly once')
  console.log(`load average (1 min) ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`)
} finally {
  await app.close()
  await database.close()
  await devnet.stop()
}
if (failures.length > 0) {
  console.error(`\n✖ ${failures.length} failures:\n${failures.slice(0, 10).join('\n')}`)
  process.exit(1)
}
console.log('\n✓ x402 payments settled')
