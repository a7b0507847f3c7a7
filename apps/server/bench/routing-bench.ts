// npm run bench: route build and wallet balances latency on a throw-away devnet.
// Starts its own anvils (ports 8945-8947, or free ones when those are taken), deploys, builds the
// app in-process on a temporary PGlite, then times 200 POST /api/local/route calls (same-chain
// transfer, swap, cross-chain) and 200 balances reads, and prints median and p95.
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import type { DevnetChainDeployment } from '@quicklinks/devnet/devnet-deployment'
import { startDevnet } from '@quicklinks/devnet/start-devnet'
import { mnemonicToAccount } from 'viem/accounts'
import { buildApp } from '../src/app.ts'
import { parseServerEnv } from '../src/config/server-env.ts'
import { links } from '../src/db/schema.ts'
import { getOrCreateUser } from '../src/services/users/get-or-create-user.ts'
import { printLatencyTable, summarizeLatencies } from './lib/latency-table.ts'

const callsPerOperation = 200
/** The three chains, then their bundlers. */
const preferredPorts = [8945, 8946, 8947, 8975, 8976, 8977]
const nativeToken = nativeTokenAddress
const csrfToken = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

async function isPortFree(port: number): Promise<boolean> {
  const server = createServer()
  return new Promise((resolve) => {
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

async function findFreePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no port assigned')
  return address.port
}

async function choosePorts(): Promise<number[]> {
  const free = await Promise.all(preferredPorts.map(isPortFree))
  if (free.every(Boolean)) return preferredPorts
  const ports: number[] = []
  while (ports.length < preferredPorts.length) {
    const port = await findFreePort()
    if (!ports.includes(port)) ports.push(port)
  }
  return ports
}

function tokenOf(chain: DevnetChainDeployment, symbol: string): string {
  const token = chain.tokens.find((candidate) => candidate.symbol === symbol)
  if (!token) throw new Error(`${symbol} is not deployed on ${chain.name}`)
  return token.address
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ql-bench-'))
  const [basePort, avalanchePort, arbitrumPort, ...bundlerPorts] = (await choosePorts()) as [
    number,
    number,
    number,
    ...number[],
  ]
  console.log(`• Starting the devnet on ports ${basePort}, ${avalanchePort}, ${arbitrumPort}…`)
  const devnet = await startDevnet({
    dataDir,
    chains: [
      { chainId: 8453, port: basePort, bundlerPort: bundlerPorts[0] },
      { chainId: 43114, port: avalanchePort, bundlerPort: bundlerPorts[1] },
      { chainId: 42161, port: arbitrumPort, bundlerPort: bundlerPorts[2] },
    ],
  })
  let app: Awaited<ReturnType<typeof buildApp>> | undefined
  try {
    const config = parseServerEnv({
      DATA_DIR: dataDir,
      DEV_MODE: 'true',
      LOG_LEVEL: 'silent',
      PORT: '0',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      RATE_LIMIT_MAX: '1000000',
      SIGNER_MASTER_KEY: '5e'.repeat(32),
    })
    app = await buildApp(config)
    const db = app.db
    const chainOf = (chainId: number) => {
      const chain = devnet.deployment.chains.find((candidate) => candidate.chainId === chainId)
      if (!chain) throw new Error(`chain ${chainId} missing`)
      return chain
    }
    const base = chainOf(8453)
    const avalanche = chainOf(43114)
    const arbitrum = chainOf(42161)
    const payer = mnemonicToAccount(devnetMnemonic, { addressIndex: 1 }).address
    const receiver = mnemonicToAccount(devnetMnemonic, { addressIndex: 2 }).address
    const routeBodies = [
      // same chain, same token: a transfer
      {
        fromChain: 8453,
        toChain: 8453,
        fromToken: tokenOf(base, 'USDC'),
        toToken: tokenOf(base, 'USDC'),
        fromAmount: '10000000',
      },
      // same chain, another token: swap and pay
      {
        fromChain: 8453,
        toChain: 8453,
        fromToken: nativeToken,
        toToken: tokenOf(base, 'USDC'),
        fromAmount: '10000000000000000',
      },
      // cross-chain: deposit and relayer fill
      {
        fromChain: 43114,
        toChain: 8453,
        fromToken: nativeToken,
        toToken: tokenOf(base, 'USDC'),
        fromAmount: '1000000000000000000',
      },
      {
        fromChain: 42161,
        toChain: 43114,
        fromToken: tokenOf(arbitrum, 'USDT'),
        toToken: tokenOf(avalanche, 'USDC'),
        fromAmount: '25000000',
      },
    ].map((body) => ({ ...body, fromAddress: payer, toAddress: receiver, slippage: 1 }))
    // Every route pays a link (docs/decisions/0018): one link per target the bodies pay.
    const owner = await getOrCreateUser(db, { address: receiver.toLowerCase() })
    const routeRequests = await Promise.all(
      routeBodies.map(async (body, index) => {
        const [link] = await db
          .insert(links)
          .values({
            userId: owner.id,
            alias: `Bench link ${index}`,
            aliasSlug: `bench-link-${index}`,
            receiverAddress: receiver,
            chain: String(body.toChain),
            chainId: body.toChain,
            tokenName: 'USDC',
            tokenAddress: body.toToken.toLowerCase(),
          })
          .returning({ id: links.id })
        if (!link) throw new Error('bench link not stored')
        return { ...body, linkId: link.id }
      }),
    )
    const balanceChains = ['base', 'avalanche', 'arbitrum-one', '8453']

    const timeCalls = async (run: (index: number) => Promise<boolean>) => {
      // One untimed call of each kind warms caches and JIT, as a running server would be.
      for (let index = 0; index < 4; index++) await run(index)
      const samples: number[] = []
      let failed = 0
      let firstFailure = ''
      for (let index = 0; index < callsPerOperation; index++) {
        const started = performance.now()
        const ok = await run(index).catch((error: unknown) => {
          firstFailure ||= String(error)
          return false
        })
        samples.push(performance.now() - started)
        if (!ok) failed++
      }
      return { samples, failed, firstFailure }
    }

    let routeFailure = ''
    console.log(`• Timing ${callsPerOperation} route builds…`)
    const routes = await timeCalls(async (index) => {
      const response = await app?.inject({
        method: 'POST',
        url: '/api/local/route',
        payload: routeRequests[index % routeRequests.length],
        cookies: { csrf_token: csrfToken },
        headers: { 'x-csrf-token': csrfToken },
        // Each call from its own address, as many payers would: the route limit is per IP.
        remoteAddress: `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
      })
      if (response?.statusCode !== 200)
        routeFailure ||= `${response?.statusCode} ${response?.body.slice(0, 200)}`
      return response?.statusCode === 200
    })
    let balanceFailure = ''
    console.log(`• Timing ${callsPerOperation} balance reads…`)
    const balances = await timeCalls(async (index) => {
      const chain = balanceChains[index % balanceChains.length]
      const response = await app?.inject({
        method: 'GET',
        url: `/api/data/wallets/${chain}/${payer}/balances`,
      })
      const entries = response?.statusCode === 200 ? (response.json().data as unknown[]) : []
      // A read that fell back to the native entry alone is a failure, not a fast answer.
      const ok = entries.length > 1
      if (!ok) balanceFailure ||= `${response?.statusCode} ${response?.body.slice(0, 200)}`
      return ok
    })

    printLatencyTable(`Routing bench (devnet, in-process app, ${callsPerOperation} calls per operation)`, [
      summarizeLatencies('route build (POST /api/local/route)', routes.samples, routes.failed),
      summarizeLatencies('balances (GET /api/data/wallets/…/balances)', balances.samples, balances.failed),
    ])
    for (const [what, failure] of [
      ['route', routeFailure || routes.firstFailure],
      ['balances', balanceFailure || balances.firstFailure],
    ]) {
      if (failure) console.log(`\n! Some ${what} calls failed; the first: ${failure}`)
    }
    if (routes.failed > 0 || balances.failed > 0) process.exitCode = 1
  } finally {
    await app?.close()
    await devnet.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
