// npm run bench: a sponsored user operation, submit → included (issue 16), median and p95 over 50.
// Starts a throw-away devnet chain (Base on a free port, with its Alto bundler on another), builds
// the app in-process (dev mode, PGlite) listening on a free loopback port, signs a fresh embedded
// user in (a session for a new key, recorded as a signer wallet), gives that user's QuickLinksAccount USDC and no ETH, then sends USDC
// transfers from it as the web app does: paymaster fields from the server's sponsor service
// (POST /api/paymaster/8453, ERC-7677) and the operation through the server's bundler relay
// (POST /api/bundler/8453). Two untimed operations warm up (the first deploys the account). Prints
// median and p95 of submit → included (sendUserOperation, which estimates, asks the sponsor service
// twice and sends, until the bundler's receipt, polled every 50 ms) and of accepted → included.
// Fees: the chain's suggested tip and twice the base fee (estimateUserOperationFees). Exits 1 when an
// operation fails or the chain disagrees (recipient's USDC, the account's ETH still 0).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { testTokenAbi } from '@quicklinks/contracts/generated/test-token'
import { buildViemChain } from '@quicklinks/devnet/build-viem-chain'
import { toDevnetQuickLinksAccount } from '@quicklinks/devnet/devnet-smart-account'
import { getDevnetAccount } from '@quicklinks/devnet/get-devnet-account'
import { startDevnet } from '@quicklinks/devnet/start-devnet'
import { estimateUserOperationFees } from '@quicklinks/wallet/smart-accounts/estimate-user-operation-fees'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  parseUnits,
} from 'viem'
import { createBundlerClient, createPaymasterClient } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { findFreePorts } from '../../../packages/devnet/test/find-free-ports.ts'
import { buildApp } from '../src/app.ts'
import { parseServerEnv } from '../src/config/server-env.ts'
import { createSession } from '../src/services/sessions/create-session.ts'
import { getOrCreateUser } from '../src/services/users/get-or-create-user.ts'
import { insertSignerWallet } from '../test/insert-signer-wallet.ts'
import { printLatencyTable, summarizeLatencies } from './lib/latency-table.ts'

const operations = 50
const warmUps = 2
const chainId = 8453
const csrfToken = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const transferAmount = parseUnits('0.01', 6)
/** Bench only: each operation's requests come from their own client address (TRUST_PROXY=1), so the per-IP route limits (60 paymaster calls a minute) do not throttle 50 operations. */
const clientAddress = (index: number) => `10.16.${(index >> 8) & 255}.${index & 255}`

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ql-bench-aa-'))
  const [chainPort = 0, bundlerPort = 0] = await findFreePorts(2)
  console.log(`• Starting the devnet chain ${chainId} on ${chainPort} and its bundler on ${bundlerPort}…`)
  const devnet = await startDevnet({ dataDir, chains: [{ chainId, port: chainPort, bundlerPort }] })
  let app: Awaited<ReturnType<typeof buildApp>> | undefined
  try {
    const chain = devnet.deployment.chains[0]
    if (!chain) throw new Error('the devnet has no chain')
    const usdc = chain.tokens.find((token) => token.symbol === 'USDC')?.address
    if (!usdc) throw new Error('no USDC on the devnet')
    const config = parseServerEnv({
      DATA_DIR: dataDir,
      DEV_MODE: 'true',
      LOG_LEVEL: 'silent',
      PORT: '0',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      SIGNER_MASTER_KEY: '5e'.repeat(32),
      TRUST_PROXY: '1',
      DEVNET_DEPLOYMENT_FILE: path.join(dataDir, 'devnet', 'deployment.json'),
      [`RPC_URL_${chainId}`]: chain.rpcUrl,
      [`BUNDLER_URL_${chainId}`]: chain.bundlerUrl,
      // One user sends all 50: a policy for USDC with room for them (the dev default caps a user's day lower).
      SPONSOR_POLICIES: JSON.stringify([
        {
          id: 'bench',
          accounts: 'embedded',
          tokens: ['USDC'],
          dailyGasCapWei: String(10n ** 21n),
          globalDailyGasCapWei: String(10n ** 21n),
        },
      ]),
      SPONSOR_DEFAULT_POLICY: 'bench',
    })
    app = await buildApp(config)
    await app.listen({ host: '127.0.0.1', port: 0 })
    const listening = app.server.address()
    if (listening === null || typeof listening === 'string') throw new Error('the app is not listening')
    const origin = `http://127.0.0.1:${listening.port}`

    const owner = privateKeyToAccount(generatePrivateKey())
    await insertSignerWallet(app.db, owner.address)
    const user = await getOrCreateUser(app.db, { address: owner.address.toLowerCase() })
    const { token } = await createSession(app.db, { userId: user.id })
    const cookie = `csrf_token=${csrfToken}; ql_session=${token}`

    const viemChain = buildViemChain(chain)
    const client = createPublicClient({
      chain: viemChain,
      transport: http(chain.rpcUrl),
      pollingInterval: 50,
    })
    const account = await toDevnetQuickLinksAccount({
      client,
      owner,
      factory: chain.contracts.accountFactory,
    })
    const funding = await createWalletClient({
      account: getDevnetAccount(0),
      chain: viemChain,
      transport: http(chain.rpcUrl),
    }).writeContract({
      address: usdc,
      abi: testTokenAbi,
      functionName: 'transfer',
      args: [account.address, parseUnits('100', 6)],
    })
    await client.waitForTransactionReceipt({ hash: funding })
    const recipient: Address = privateKeyToAccount(generatePrivateKey()).address

    const sendOne = async (index: number) => {
      const fetchOptions = {
        headers: { cookie, 'x-csrf-token': csrfToken, 'x-forwarded-for': clientAddress(index) },
      }
      const bundler = createBundlerClient({
        client,
        transport: http(`${origin}/api/bundler/${chainId}`, { fetchOptions, retryCount: 0 }),
        paymaster: createPaymasterClient({
          transport: http(`${origin}/api/paymaster/${chainId}`, { fetchOptions, retryCount: 0 }),
        }),
        paymasterContext: { policyId: 'bench' },
        pollingInterval: 50,
        userOperation: { estimateFeesPerGas: () => estimateUserOperationFees(client) },
      })
      const submittedAt = performance.now()
      const hash = await bundler.sendUserOperation({
        account,
        calls: [
          {
            to: usdc,
            data: encodeFunctionData({
              abi: testTokenAbi,
              functionName: 'transfer',
              args: [recipient, transferAmount],
            }),
          },
        ],
      })
      const acceptedAt = performance.now()
      const receipt = await bundler.waitForUserOperationReceipt({
        hash,
        timeout: 30_000,
        pollingInterval: 50,
      })
      const includedAt = performance.now()
      if (!receipt.success) throw new Error(`user operation ${hash} reverted`)
      if (receipt.paymaster?.toLowerCase() !== chain.contracts.sponsorPaymaster.toLowerCase())
        throw new Error(`user operation ${hash} was not paid by the SponsorPaymaster (${receipt.paymaster})`)
      return { submitToIncluded: includedAt - submittedAt, acceptedToIncluded: includedAt - acceptedAt }
    }

    console.log(`• ${warmUps} untimed operations (the first deploys the account), then ${operations} timed…`)
    for (let index = 0; index < warmUps; index++) await sendOne(index)
    const submitToIncluded: number[] = []
    const acceptedToIncluded: number[] = []
    let failed = 0
    let firstFailure = ''
    for (let index = warmUps; index < warmUps + operations; index++) {
      try {
        const sample = await sendOne(index)
        submitToIncluded.push(sample.submitToIncluded)
        acceptedToIncluded.push(sample.acceptedToIncluded)
      } catch (error) {
        failed++
        firstFailure ||= error instanceof Error ? error.message : String(error)
      }
    }

    // What the chain says: every transfer arrived, and the account never held gas money.
    const received = await client.readContract({
      address: usdc,
      abi: testTokenAbi,
      functionName: 'balanceOf',
      args: [recipient],
    })
    const expected = transferAmount * BigInt(warmUps + operations - failed)
    const ethBalance = await client.getBalance({ address: account.address })

    printLatencyTable(
      `Sponsored user operation bench (devnet chain ${chainId}, Alto, in-process app; through POST /api/paymaster and /api/bundler)`,
      [
        summarizeLatencies('sponsored USDC transfer, submit → included', submitToIncluded, failed),
        summarizeLatencies('sponsored USDC transfer, accepted → included', acceptedToIncluded, failed),
      ],
    )
    console.log(
      `\nOn chain: the recipient got ${received} of ${expected} USDC units expected; the account holds ${ethBalance} wei of ETH.`,
    )
    if (firstFailure) console.log(`\n! ${failed} operations failed; the first: ${firstFailure}`)
    if (failed > 0 || received !== expected || ethBalance !== 0n) process.exitCode = 1
  } finally {
    await app?.close()
    await devnet.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
