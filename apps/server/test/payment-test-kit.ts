import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { buildViemChain } from '@quicklinks/devnet/build-viem-chain'
import type { DevnetChainDeployment, DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import { getDevnetAccount } from '@quicklinks/devnet/get-devnet-account'
import { startDevnet } from '@quicklinks/devnet/start-devnet'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyInstance } from 'fastify'
import {
  type Chain,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type HDAccount,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem'
import { vi } from 'vitest'
import { findFreePorts } from '../../../packages/devnet/test/find-free-ports.ts'
import type { AppDependencies } from '../src/app.ts'
import type { ServerConfig } from '../src/config/server-env.ts'
import { links } from '../src/db/schema.ts'
import { getOrCreateUser } from '../src/services/users/get-or-create-user.ts'
import { buildTestApp, type TestApp } from './build-test-app.ts'
import { copyPaymentDevnetTemplate, paymentDevnetChainIds } from './payment-devnet-template.ts'

/** The devnet's three chains on free ports, with the file the app reads. */
export type PaymentDevnet = {
  deployment: DevnetDeployment
  deploymentFile: string
  chain(chainId: number): DevnetChainDeployment
  token(chainId: number, symbol: string): `0x${string}`
  publicClient(chainId: number): PublicClient
  wallet(chainId: number, accountIndex: number): WalletClient<Transport, Chain, HDAccount>
  account(index: number): HDAccount
  /** Balance of a token (the all-e placeholder for native) held by `owner`. */
  balanceOf(chainId: number, token: `0x${string}`, owner: `0x${string}`): Promise<bigint>
  stop(): Promise<void>
}

export const nativeToken = nativeTokenAddress
/** A CSRF cookie and header pair the csrf plugin accepts. */
export const csrfToken = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

/** The relayer key of the devnet (test mnemonic account 9), as RELAYER_PRIVATE_KEY would give it. */
export function getDevnetRelayerPrivateKey(): `0x${string}` {
  const key = getDevnetAccount(9).getHdKey().privateKey
  if (!key) throw new Error('no private key for account 9')
  return `0x${Buffer.from(key).toString('hex')}`
}

/**
 * Starts Base, Avalanche and Arbitrum anvils on free ports with everything deployed (restarted
 * from the run's deployed template when there is one: copyPaymentDevnetTemplate); their bundlers
 * only with `bundlers: true` (no payment test sends a user operation, and three Alto processes
 * took longer to start than the chains and their deployment: 11-19 s of a 30 s start on a busy
 * 2-core machine).
 */
export async function startPaymentDevnet(options: { bundlers?: boolean } = {}): Promise<PaymentDevnet> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ql-payments-'))
  await copyPaymentDevnetTemplate(dataDir)
  // Each chain and its bundler on a free port of its own.
  const ports = await findFreePorts(6)
  const devnet = await startDevnet({
    dataDir,
    bundlers: options.bundlers ?? false,
    chains: paymentDevnetChainIds.map((chainId, index) => ({
      chainId,
      port: ports[index] ?? 0,
      bundlerPort: ports[index + 3] ?? 0,
    })),
  })
  const chain = (chainId: number): DevnetChainDeployment => {
    const found = devnet.deployment.chains.find((candidate) => candidate.chainId === chainId)
    if (!found) throw new Error(`chain ${chainId} is not on the devnet`)
    return found
  }
  const publicClients = new Map<number, PublicClient>()
  const publicClient = (chainId: number): PublicClient => {
    let client = publicClients.get(chainId)
    if (!client) {
      client = createPublicClient({
        chain: buildViemChain(chain(chainId)),
        transport: http(chain(chainId).rpcUrl),
      })
      publicClients.set(chainId, client)
    }
    return client
  }
  const account = (index: number) => getDevnetAccount(index)
  return {
    deployment: devnet.deployment,
    deploymentFile: path.join(dataDir, 'devnet', 'deployment.json'),
    chain,
    token: (chainId, symbol) => {
      const found = chain(chainId).tokens.find((token) => token.symbol === symbol)
      if (!found) throw new Error(`${symbol} is not on chain ${chainId}`)
      return found.address
    },
    publicClient,
    account,
    wallet: (chainId, accountIndex) =>
      createWalletClient({
        account: account(accountIndex),
        chain: buildViemChain(chain(chainId)),
        transport: http(chain(chainId).rpcUrl),
      }),
    balanceOf: async (chainId, token, owner) => {
      const client = publicClient(chainId)
      if (token.toLowerCase() === nativeToken.toLowerCase()) return client.getBalance({ address: owner })
      return client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
    },
    stop: async () => {
      await devnet.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** POST with the CSRF pair, as the web's API client sends it. */
export async function postJson(app: FastifyInstance, url: string, payload: unknown, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    cookies: { csrf_token: csrfToken },
    headers: { 'x-csrf-token': csrfToken },
    ...(remoteAddress ? { remoteAddress } : {}),
  })
}

/** A transaction record as GET /api/data/transactions/{address} returns it (the fields tests read). */
export type TestTransactionRecord = {
  intent_id: string
  status: string
  status_raw: string | null
  source_tx_hash: string | null
  dest_tx_hash: string | null
  error_message: string | null
  is_refunded: boolean
  to_amount_wei: string | null
  route_status: { type: string; chainId: number; txHash: string | null; status: string }[]
  route_path: { type: string }[]
  from_chain_tx_url: string | null
  to_chain_tx_url: string | null
  time_spent_ms: number | null
}

/**
 * Reads the transactions endpoint (as the pay modal does) until the intent's record is final
 * (success or failed); throws after `timeoutMs` with the last record seen. The tracker announces
 * no event a test could await, so this asks again whenever the last answer was not final
 * (vi.waitFor), as the user's screen would.
 */
export async function waitForFinalRecord(
  app: FastifyInstance,
  payer: string,
  intentId: string,
  timeoutMs = 30_000,
): Promise<TestTransactionRecord> {
  const answer = await vi.waitFor(
    async (): Promise<{ record: TestTransactionRecord } | { failure: string }> => {
      const response = await app.inject({ method: 'GET', url: `/api/data/transactions/${payer}` })
      // A refused read is an answer, not a state to wait out.
      if (response.statusCode !== 200)
        return { failure: `transactions answered ${response.statusCode}: ${response.body}` }
      const last = (response.json().data as TestTransactionRecord[]).find(
        (record) => record.intent_id === intentId,
      )
      if (last && (last.status === 'success' || last.status === 'failed')) return { record: last }
      throw new Error(`payment ${intentId} not final after ${timeoutMs} ms: ${JSON.stringify(last)}`)
    },
    { timeout: timeoutMs, interval: 150 },
  )
  if ('failure' in answer) throw new Error(answer.failure)
  return answer.record
}

/** A route as POST /api/{provider}/route answers it (the fields tests read). */
export type TestRoute = {
  intentId: `0x${string}`
  route: {
    transactionRequest: {
      to: `0x${string}`
      target: string
      data: `0x${string}`
      value: string
      gasLimit: string
    }
    estimate: { fromAmount: string; toAmount: string; toAmountMin: string; actions: { type: string }[] }
    spender: `0x${string}` | null
  }
}

/**
 * `body` naming the link it pays, as every payment's route must (docs/decisions/0018): a body
 * without `linkId` gets a new link of its `toAddress` for its `toToken` on its `toChain`.
 */
export async function withTestLink(
  app: FastifyInstance,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if ('linkId' in body) return body
  const receiver = String(body.toAddress) as `0x${string}`
  const link = await createTestLink(app.db, {
    owner: receiver,
    receiver,
    chainId: Number(body.toChain),
    token: String(body.toToken) as `0x${string}`,
    symbol: 'TOKEN',
  })
  return { ...body, linkId: link.id }
}

/**
 * POST /api/local/route for `body`, paying a link made for it unless it names one
 * (withTestLink); fails the test unless it answers 200.
 */
export async function buildTestRoute(
  app: FastifyInstance,
  body: Record<string, unknown>,
): Promise<TestRoute> {
  const response = await postJson(app, '/api/local/route', await withTestLink(app, body))
  if (response.statusCode !== 200) throw new Error(`route answered ${response.statusCode}: ${response.body}`)
  return response.json().data as TestRoute
}

/** A payment link of `owner` stored as the owner would create it: `symbol` on `chainId`, paid to `receiver`. */
export async function createTestLink(
  db: Database,
  options: {
    owner: `0x${string}`
    receiver: `0x${string}`
    chainId: number
    token: `0x${string}`
    symbol: string
  },
): Promise<{ id: string }> {
  const user = await getOrCreateUser(db, { address: options.owner })
  const [link] = await db
    .insert(links)
    .values({
      userId: user.id,
      alias: `Pay ${options.symbol} ${options.chainId} ${Math.random()}`,
      aliasSlug: `pay-${options.symbol.toLowerCase()}-${options.chainId}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
      receiverAddress: options.receiver,
      chain: String(options.chainId),
      chainId: options.chainId,
      tokenName: options.symbol,
      tokenAddress: options.token.toLowerCase(),
    })
    .returning()
  if (!link) throw new Error('link not stored')
  return { id: link.id }
}

/**
 * An app on the devnet in dev mode with the devnet's relayer key, running its tracker and relayer
 * every 100 ms, as the payment tests need it; `overrides` change the config, `onWorkerRound` hears
 * each worker round end (see createWorkerRounds).
 */
export function startPaymentApp(
  devnet: PaymentDevnet,
  overrides: Partial<ServerConfig> = {},
  dependencies: Pick<AppDependencies, 'onWorkerRound' | 'workerNow'> = {},
): Promise<TestApp> {
  return buildTestApp(
    {
      devMode: true,
      devnetDeploymentFile: devnet.deploymentFile,
      relayerPrivateKey: getDevnetRelayerPrivateKey(),
      workerIntervalMs: 100,
      ...overrides,
    },
    { startWorkers: true, ...dependencies },
  )
}
