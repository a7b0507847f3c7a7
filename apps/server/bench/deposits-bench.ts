/**
 * Deposit benchmark (issue 33), run by `npm run bench` (or `node --import tsx
 * apps/server/bench/deposits-bench.ts`). One app on the devnet with its workers every 100 ms, as the
 * payment tests run it; each sample makes a deposit for a Base USDC link, sends one plain USDC
 * `transfer` to its address and measures from that transfer mined (its receipt) to the link's
 * receiver credited (its Base USDC balance up by the amount):
 *   - same chain (a transfer on Base): median and p95 ≤ 2 s;
 *   - cross chain (a transfer on Avalanche, bridged by the local relayer): median and p95 ≤ 3 s.
 * DEPOSITS_BENCH_SAMPLES overrides the 20 samples per row. Prints the machine's load beside each
 * row (the workers share two cores with everything else); met/MISSED per target, exits 1 when one
 * is missed.
 */
import { availableParallelism, loadavg } from 'node:os'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { erc20Abi, getAddress, parseUnits } from 'viem'
import { buildApp } from '../src/app.ts'
import { migrate } from '../src/db/migrate.ts'
import { links } from '../src/db/schema.ts'
import { getOrCreateUser } from '../src/services/users/get-or-create-user.ts'
import { createTestConfig } from '../test/create-test-config.ts'
import {
  getDevnetRelayerPrivateKey,
  type PaymentDevnet,
  postJson,
  startPaymentDevnet,
} from '../test/payment-test-kit.ts'
import { printLatencyTable, summarizeLatencies } from './lib/latency-table.ts'

const samples = Number(process.env.DEPOSITS_BENCH_SAMPLES ?? 20)
const targets = { sameChain: 2_000, crossChain: 3_000 } as const
const receiverIndex = 2
const amount = parseUnits('1', 6)

const formatLoad = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')

const devnet = await startPaymentDevnet()
const database = await createDatabaseClient({ kind: 'pglite' })
await migrate(database)
const app = await buildApp(
  createTestConfig({
    devMode: true,
    devnetDeploymentFile: devnet.deploymentFile,
    relayerPrivateKey: getDevnetRelayerPrivateKey(),
    workerIntervalMs: 100,
  }),
  { database, logger: createLogger('silent'), startWorkers: true },
)
await app.ready()

const receiver = devnet.account(receiverIndex).address
const baseUsdc = devnet.token(8453, 'USDC')
const user = await getOrCreateUser(database.db, { address: receiver })
const [link] = await database.db
  .insert(links)
  .values({
    userId: user.id,
    alias: 'Deposits bench',
    aliasSlug: `deposits-bench-${Date.now()}`,
    receiverAddress: receiver.toLowerCase(),
    chain: '8453',
    chainId: 8453,
    tokenName: 'USDC',
    tokenAddress: baseUsdc.toLowerCase(),
  })
  .returning()
if (!link) throw new Error('link not stored')

/** One sample: a new deposit, one transfer into it from `payerIndex` on `chainId`, ms from mined to credited. */
async function measure(
  devnet: PaymentDevnet,
  chainId: number,
  payerIndex: number,
  index: number,
): Promise<number> {
  // A client address per deposit: the create call is rate limited per client (20 a minute).
  const created = await postJson(
    app,
    `/api/pay/links/${link?.aliasSlug}/deposits`,
    {},
    `10.33.${chainId % 256}.${index + 1}`,
  )
  if (created.statusCode !== 201) throw new Error(`deposit not made: ${created.statusCode} ${created.body}`)
  const deposit = created.json().data as { address: string }
  const before = await devnet.balanceOf(8453, baseUsdc, receiver)
  const hash = await devnet.wallet(chainId, payerIndex).writeContract({
    address: devnet.token(chainId, 'USDC'),
    abi: erc20Abi,
    functionName: 'transfer',
    args: [getAddress(deposit.address), amount],
  })
  await devnet.publicClient(chainId).waitForTransactionReceipt({ hash, pollingInterval: 20 })
  const mined = performance.now()
  const deadline = mined + 30_000
  while (performance.now() < deadline) {
    if ((await devnet.balanceOf(8453, baseUsdc, receiver)) - before >= amount)
      return performance.now() - mined
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`deposit ${deposit.address} not credited within 30 s`)
}

type Series = { label: string; chainId: number; payerIndex: number; targetMs: number }
const series: Series[] = [
  { label: 'same chain (Base USDC → Base USDC)', chainId: 8453, payerIndex: 4, targetMs: targets.sameChain },
  {
    label: 'cross chain (Avalanche USDC → Base USDC)',
    chainId: 43114,
    payerIndex: 5,
    targetMs: targets.crossChain,
  },
]

console.log(`Deposits bench on ${availableParallelism()} cores, load ${formatLoad()} (1, 5, 15 min)`)
const rows = []
const verdicts: { label: string; isMet: boolean }[] = []
try {
  for (const { label, chainId, payerIndex, targetMs } of series) {
    // One unmeasured sample first: the forwarder code, the route and the relayer's caches warm up.
    await measure(devnet, chainId, payerIndex, samples)
    const latencies: number[] = []
    let failed = 0
    for (let index = 0; index < samples; index++) {
      try {
        latencies.push(await measure(devnet, chainId, payerIndex, index))
      } catch (error) {
        failed += 1
        console.error(`${label}: ${(error as Error).message}`)
      }
    }
    const row = summarizeLatencies(`mined → credited, ${label}`, latencies, failed)
    rows.push(row)
    const isMet = failed === 0 && row.median <= targetMs && row.p95 <= targetMs
    verdicts.push({ label, isMet })
    console.log(
      `${label}: median ${row.median.toFixed(0)} ms, p95 ${row.p95.toFixed(0)} ms over ${row.n} (${failed} failed); ` +
        `target ≤ ${targetMs} ms: ${isMet ? 'met' : 'MISSED'}; load ${formatLoad()}`,
    )
  }
} finally {
  await app.close()
  await database.close()
  await devnet.stop()
}
printLatencyTable('Deposit transfer mined → receiver credited (devnet, workers every 100 ms)', rows)
const missed = verdicts.filter((verdict) => !verdict.isMet)
console.log(
  missed.length === 0
    ? 'All deposit targets met'
    : `MISSED: ${missed.map((verdict) => verdict.label).join(', ')}`,
)
process.exit(missed.length === 0 ? 0 : 1)
