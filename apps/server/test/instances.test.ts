import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildViemChain } from '@quicklinks/devnet/build-viem-chain'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import type { RunningEntryPoint } from '@quicklinks/runtime/test/start-entry-point'
import { type RunningPostgres, startPostgres } from '@quicklinks/runtime/test/start-postgres'
import { type RunningRedis, startRedis } from '@quicklinks/runtime/test/start-redis'
import pg from 'pg'
import { createWalletClient, type Hash, http, keccak256, parseEther, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nativeToken, type PaymentDevnet, startPaymentDevnet } from './payment-test-kit.ts'
import { type HttpSession, signInOverHttp } from './sign-in-over-http.ts'
import { type RunningHaproxy, startHaproxy } from './start-haproxy.ts'
import { startProductionInstance } from './start-production-instance.ts'
import { answers200, waitUntil } from './wait-until.ts'

/**
 * Two app instances (src/main.ts in production mode) on one real Postgres and one real Redis,
 * behind a real HAProxy on loopback, as the README's "Running in production" sets them up. 200
 * payers, each from its own loopback address (so each has its own rate limits, counted in Redis),
 * build routes, pay on the devnet and post receipts through the load balancer; when half the
 * receipts are in, the instance holding the relayer's writer lock is SIGKILLed. Then: every route
 * and receipt the instances acknowledged is in the database, every payment reaches success once
 * (one matched receipt, one fill per cross-chain deposit, the receivers credited exactly what the
 * records say), and the surviving instance served all of it.
 */

const payerCount = 200

let devnet: PaymentDevnet
let postgres: RunningPostgres
let redis: RunningRedis
let haproxy: RunningHaproxy | undefined
const instances: RunningEntryPoint[] = []
const dataDir = mkdtempSync(join(tmpdir(), 'ql-instances-'))

beforeAll(async () => {
  ;[devnet, postgres, redis] = await Promise.all([startPaymentDevnet(), startPostgres(), startRedis()])
}, 180_000)
afterAll(async () => {
  for (const instance of instances) instance.child.kill('SIGKILL')
  await Promise.all([haproxy?.stop(), devnet?.stop(), postgres?.stop(), redis?.stop()])
  rmSync(dataDir, { recursive: true, force: true })
})

function startInstance(name: string, port: number, publicOrigin: string): RunningEntryPoint {
  const deployment = { devnet, postgresUrl: postgres.url, redisUrl: redis.url, dataDir }
  return startProductionInstance(deployment, { name, port, publicOrigin })
}

type HttpAnswer = { status: number; body: unknown; headers: Record<string, string | string[] | undefined> }

/** One HTTP request from `localAddress` (a loopback address of its own), as one payer's browser. */
function send(
  url: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string>; localAddress: string },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
    const outgoing = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        localAddress: options.localAddress,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        timeout: 60_000,
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          text += chunk
        })
        response.on('end', () => {
          let body: unknown = text
          try {
            body = JSON.parse(text)
          } catch {}
          resolve({ status: response.statusCode ?? 0, body, headers: response.headers })
        })
        response.on('error', reject)
      },
    )
    outgoing.on('timeout', () => outgoing.destroy(new Error('timed out')))
    outgoing.on('error', reject)
    outgoing.end(payload)
  })
}

/** Failures a payer's browser would retry (the instance it reached is gone): resets, 502, 503, 504. */
const transientStatuses = new Set([502, 503, 504])

type Counters = { retried: number; reasons: Map<string, number> }

/** Sends until an answer that is not transient, at most 40 tries, half a second apart. */
async function sendUntilAnswered(
  url: string,
  options: Parameters<typeof send>[1],
  counters: Counters,
): Promise<HttpAnswer> {
  let lastProblem = ''
  for (let attempt = 0; attempt < 40; attempt += 1) {
    try {
      const answer = await send(url, options)
      if (!transientStatuses.has(answer.status)) return answer
      lastProblem = `${answer.status} ${JSON.stringify(answer.body)}`
    } catch (error) {
      lastProblem = (error as Error).message
    }
    counters.retried += 1
    const reason = lastProblem.slice(0, 80)
    counters.reasons.set(reason, (counters.reasons.get(reason) ?? 0) + 1)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`${options.method ?? 'GET'} ${url} never answered: ${lastProblem}`)
}

function readCookieValue(answer: HttpAnswer, name: string): string {
  const cookies = answer.headers['set-cookie'] ?? []
  const cookie = (Array.isArray(cookies) ? cookies : [cookies]).find((entry) => entry.startsWith(`${name}=`))
  if (cookie === undefined) throw new Error(`no ${name} cookie`)
  return cookie.split(';', 1)[0]?.slice(name.length + 1) ?? ''
}

type Payment = {
  payer: `0x${string}`
  linkId: string
  receiver: `0x${string}`
  fromChain: number
  amount: bigint
  intentId?: string
  txHash?: Hash
  receiptStatus?: number
  /** The receipt was first sent after the kill: only the survivor can have ended this payment. */
  isAfterKill?: boolean
  finalStatus?: string
  toAmountWei?: string
}

describe('two instances behind HAProxy on Postgres and Redis', () => {
  it('loses nothing and pays every payer exactly once when an instance is SIGKILLed mid-load', async () => {
    const [portA, portB] = await Promise.all([getFreePort(), getFreePort()])
    haproxy = await startHaproxy([portA, portB])
    const front = haproxy.url
    const first = startInstance('a', portA, front)
    const second = startInstance('b', portB, front)
    instances.push(first, second)
    await Promise.all([first.waitForOutput(/(Server ready)/), second.waitForOutput(/(Server ready)/)])
    // HAProxy puts an instance in service after two good /ready probes.
    await waitUntil(() => answers200(`${front}/ready`), 20_000, 'HAProxy answering /ready 200')

    // Two payees, one link each: paid from the same chain (a swap) and across chains (the relayer).
    const usdc = devnet.token(8453, 'USDC')
    const createLink = async (session: HttpSession, alias: string): Promise<string> => {
      const response = await fetch(`${front}/api/links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf, cookie: session.cookie },
        body: JSON.stringify({
          alias,
          receiver_address: session.address,
          chain: 'base',
          chain_id: 8453,
          token_name: 'USDC',
          token_address: usdc.toLowerCase(),
          idempotency_key: `instances-${alias}`,
        }),
      })
      expect(response.status, await response.clone().text()).toBe(201)
      return ((await response.json()) as { data: { id: string } }).data.id
    }
    const sameChainPayee = await signInOverHttp(front)
    const crossChainPayee = await signInOverHttp(front)
    const sameChainLink = await createLink(sameChainPayee, 'Instances same chain')
    const crossChainLink = await createLink(crossChainPayee, 'Instances cross chain')
    const receivers = [sameChainPayee.address, crossChainPayee.address]
    const balancesBefore = await Promise.all(
      receivers.map((receiver) => devnet.balanceOf(8453, usdc, receiver)),
    )

    const payments: Payment[] = Array.from({ length: payerCount }, (_, index) => {
      const isCrossChain = index % 2 === 1
      return {
        payer: privateKeyToAccount(keccak256(toHex(`instances-payer-${index}`))).address,
        linkId: isCrossChain ? crossChainLink : sameChainLink,
        receiver: isCrossChain ? crossChainPayee.address : sameChainPayee.address,
        fromChain: isCrossChain ? 43114 : 8453,
        amount: isCrossChain ? parseEther('0.2') : parseEther('0.001'),
      }
    })
    await Promise.all(
      payments.map((payment) =>
        devnet.publicClient(payment.fromChain).request({
          method: 'anvil_setBalance' as 'eth_chainId',
          params: [payment.payer, toHex(parseEther('10'))] as unknown as undefined,
        }),
      ),
    )

    let killedAt: number | undefined
    const counters: Counters = { retried: 0, reasons: new Map() }
    let onHalfway: () => void = () => {}
    const halfway = new Promise<void>((resolve) => {
      onHalfway = resolve
    })
    const pay = async (payment: Payment, index: number): Promise<void> => {
      // Payers arrive over twenty seconds; the kill comes as the 101st arrives, with the first
      // hundred at every step (quotes, payments, receipts, fills) and the rest still to come.
      await new Promise((resolve) => setTimeout(resolve, index * 100))
      if (index === payerCount / 2) onHalfway()
      const localAddress = `127.0.${1 + Math.floor(index / 250)}.${1 + (index % 250)}`
      const csrf = readCookieValue(
        await sendUntilAnswered(`${front}/health`, { localAddress }, counters),
        'csrf_token',
      )
      const writeHeaders = { 'x-csrf-token': csrf, cookie: `csrf_token=${csrf}` }
      const route = await sendUntilAnswered(
        `${front}/api/local/route`,
        {
          method: 'POST',
          localAddress,
          headers: writeHeaders,
          body: {
            fromChain: payment.fromChain,
            toChain: 8453,
            fromToken: nativeToken,
            toToken: usdc,
            fromAmount: payment.amount.toString(),
            fromAddress: payment.payer,
            toAddress: payment.receiver,
            slippage: 1,
            linkId: payment.linkId,
          },
        },
        counters,
      )
      expect(route.status, `${JSON.stringify(route.body)}\n${errorLines(instances)}`).toBe(200)
      const built = (route.body as { data: { intentId: string; route: { transactionRequest: TxRequest } } })
        .data
      payment.intentId = built.intentId
      const chain = devnet.chain(payment.fromChain)
      const wallet = createWalletClient({
        account: privateKeyToAccount(keccak256(toHex(`instances-payer-${index}`))),
        chain: buildViemChain(chain),
        transport: http(chain.rpcUrl),
      })
      const request = built.route.transactionRequest
      payment.txHash = await wallet.sendTransaction({
        to: request.to,
        data: request.data,
        value: BigInt(request.value),
        gas: BigInt(request.gasLimit),
      })
      await devnet.publicClient(payment.fromChain).waitForTransactionReceipt({ hash: payment.txHash })
      payment.isAfterKill = killedAt !== undefined
      const receipt = await sendUntilAnswered(
        `${front}/api/route-intent/${built.intentId}/receipt`,
        {
          method: 'POST',
          localAddress,
          // The id travels with the payment to whichever instance's workers end it.
          headers: { ...writeHeaders, 'x-request-id': `receipt-${index}` },
          body: { txHash: payment.txHash },
        },
        counters,
      )
      payment.receiptStatus = receipt.status
      // The pay modal's poll, until the record is final.
      const deadline = Date.now() + 300_000
      while (Date.now() < deadline) {
        const answer = await sendUntilAnswered(
          `${front}/api/data/transactions/${payment.payer}`,
          { localAddress },
          counters,
        )
        const record = (answer.body as { data?: TransactionRecord[] }).data?.find(
          (entry) => entry.intent_id === built.intentId,
        )
        if (record?.status === 'success' || record?.status === 'failed') {
          payment.finalStatus = record.status
          payment.toAmountWei = record.to_amount_wei ?? undefined
          return
        }
        await new Promise((resolve) => setTimeout(resolve, 2_000))
      }
    }

    const paying = Promise.all(payments.map((payment, index) => pay(payment, index)))
    await Promise.race([halfway, paying])
    // The instance that relays is the one whose loss hurts most: kill it.
    const writer = first.output().includes('Relayer holds the writer lock') ? first : second
    const survivor = writer === first ? second : first
    killedAt = Date.now()
    writer.child.kill('SIGKILL')
    await writer.exited
    await paying

    // Every payment reached its true end: success, through the survivor.
    expect(payments.filter((payment) => payment.receiptStatus !== 202)).toEqual([])
    const unfinished = payments.filter((payment) => payment.finalStatus !== 'success')
    if (unfinished.length > 0) {
      throw new Error(
        `${unfinished.length} payments did not succeed:\n${await describeIntents(
          unfinished.map((payment) => payment.intentId ?? ''),
          survivor,
        )}`,
      )
    }
    expect(survivor.child.exitCode).toBeNull()
    await waitUntil(
      () => survivor.output().includes('Relayer holds the writer lock'),
      1_000,
      'the survivor holding the relayer writer lock',
    )

    const database = new pg.Client({ connectionString: postgres.url })
    await database.connect()
    try {
      // Nothing acknowledged was lost: every intent and its payer's transaction is stored, final.
      const intents = await database.query<{ id: string; source_tx_hash: string; status: string }>(
        'SELECT id, source_tx_hash, status FROM route_intents WHERE id = ANY($1)',
        [payments.map((payment) => payment.intentId)],
      )
      const byId = new Map(intents.rows.map((row) => [row.id, row]))
      for (const payment of payments) {
        expect(byId.get(payment.intentId ?? '')).toMatchObject({
          source_tx_hash: payment.txHash,
          status: 'success',
        })
      }
      // Exactly once: one matched receipt per intent, one fill per cross-chain deposit.
      const receipts = await database.query<{ intent_id: string; matched: string }>(
        "SELECT intent_id, count(*) FILTER (WHERE state = 'matched') AS matched FROM route_intent_receipts WHERE intent_id = ANY($1) GROUP BY intent_id",
        [payments.map((payment) => payment.intentId)],
      )
      expect(receipts.rows.filter((row) => row.matched !== '1')).toEqual([])
      expect(receipts.rows).toHaveLength(payerCount)
      const crossChainIntents = payments
        .filter((payment) => payment.fromChain === 43114)
        .map((p) => p.intentId)
      const readDeposits = () =>
        database.query<{ intent_id: string; state: string; fill_tx_hash: string }>(
          'SELECT intent_id, state, fill_tx_hash FROM relayer_deposits WHERE intent_id = ANY($1)',
          [crossChainIntents],
        )
      // A fill the killed writer had sent stays 'filling' until the new writer's claim on it (the
      // 90 s deposit lease) lets it follow that transaction instead of sending another.
      await waitUntil(
        async () =>
          (await readDeposits()).rows.every((row) => row.state === 'filled' || row.state === 'settled'),
        150_000,
        'every deposit filled or settled',
        200,
      )
      const deposits = await readDeposits()
      expect(deposits.rows).toHaveLength(crossChainIntents.length)
      expect(new Set(deposits.rows.map((row) => row.intent_id)).size).toBe(crossChainIntents.length)
      expect(new Set(deposits.rows.map((row) => row.fill_tx_hash)).size).toBe(crossChainIntents.length)
      expect(deposits.rows.filter((row) => row.state !== 'filled' && row.state !== 'settled')).toEqual([])
    } finally {
      await database.end()
    }
    // Each payment's end is logged at most once, under the id of the request that posted its
    // receipt; exactly once by the survivor for those posted after the kill (the killed instance's
    // last lines may be lost with it: pino writes asynchronously).
    const finalLines = (instance: RunningEntryPoint) =>
      instance
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"Payment final"'))
    const survivorLines = finalLines(survivor)
    const allLines = [...finalLines(writer), ...survivorLines]
    const isAbout = (payment: Payment) => (line: string) => line.includes(`"intentId":"${payment.intentId}"`)
    for (const [index, payment] of payments.entries()) {
      const lines = allLines.filter(isAbout(payment))
      expect(lines.length, `payment ${index}`).toBeLessThanOrEqual(1)
      for (const line of lines) expect(line).toContain(`"requestId":"receipt-${index}"`)
      if (payment.isAfterKill)
        expect(survivorLines.filter(isAbout(payment)), `payment ${index}`).toHaveLength(1)
    }
    expect(payments.filter((payment) => payment.isAfterKill).length).toBeGreaterThan(0)
    // The relayer's lines carry the request id too (the route build's, or a receipt's if one came first).
    const fillLines = [...writer.output().split('\n'), ...survivor.output().split('\n')].filter((line) =>
      line.includes('"msg":"Relayer filled an order"'),
    )
    expect(fillLines.length).toBeGreaterThan(0)
    expect(fillLines.filter((line) => !/"requestId":"[^"]+"/.test(line))).toEqual([])
    // On chain, each receiver got exactly what its records say: no fill or payment twice.
    for (const [index, receiver] of receivers.entries()) {
      const credited = payments
        .filter((payment) => payment.receiver === receiver)
        .reduce((sum, payment) => sum + BigInt(payment.toAmountWei ?? '0'), 0n)
      expect((await devnet.balanceOf(8453, usdc, receiver)) - (balancesBefore[index] ?? 0n)).toBe(credited)
    }
    console.info(`instances: ${counters.retried} requests retried by payers`, [...counters.reasons])
  }, 600_000)
})

type TxRequest = { to: `0x${string}`; data: `0x${string}`; value: string; gasLimit: string }
type TransactionRecord = { intent_id: string; status: string; to_amount_wei: string | null }

/** The error lines the instances logged, for a failure's message. */
function errorLines(running: readonly RunningEntryPoint[]): string {
  return running
    .flatMap((instance) => instance.output().split('\n'))
    .filter((line) => /"level":(50|60)/.test(line))
    .slice(-10)
    .join('\n')
}

/** The stored state of `intentIds` and what the survivor logged about them, for a failure's message. */
async function describeIntents(intentIds: string[], survivor: RunningEntryPoint): Promise<string> {
  const database = new pg.Client({ connectionString: postgres.url })
  await database.connect()
  try {
    const intents = await database.query(
      `SELECT id, from_chain_id, status, status_raw, source_tx_hash, source_block_number, next_check_at,
        locked_until, attempts, error_message, dest_tx_hash FROM route_intents WHERE id = ANY($1)`,
      [intentIds],
    )
    const receipts = await database.query(
      'SELECT intent_id, tx_hash, state, reason FROM route_intent_receipts WHERE intent_id = ANY($1)',
      [intentIds],
    )
    const deposits = await database.query(
      'SELECT intent_id, state, attempts, last_error, next_attempt_at FROM relayer_deposits WHERE intent_id = ANY($1)',
      [intentIds],
    )
    const logLines = survivor
      .output()
      .split('\n')
      .filter((line) => intentIds.some((id) => line.includes(id)) || /"level":(40|50|60)/.test(line))
      .slice(-40)
    return JSON.stringify(
      { now: new Date(), intents: intents.rows, receipts: receipts.rows, deposits: deposits.rows, logLines },
      null,
      1,
    )
  } finally {
    await database.end()
  }
}
