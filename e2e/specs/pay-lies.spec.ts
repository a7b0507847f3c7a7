import type { APIRequestContext, Page } from '@playwright/test'
import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  parseAbi,
  parseEther,
  parseEventLogs,
} from 'viem'
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import {
  chooseChainAndToken,
  connectTestWallet,
  type Devnet,
  enterAmount,
  expect,
  type FreshPayer,
  fundFreshPayer,
  getDevnetChain,
  getDevnetToken,
  openPayPage,
  type PayLink,
  payModal,
  readBaseUsdcBalance,
  test,
  toasts,
} from '../fixtures/pay.ts'
import { checkScreen } from '../fixtures/screens.ts'
import type { OutgoingTransaction, TestWallet } from '../fixtures/test-wallet.ts'

/**
 * A payer who lies (docs/decisions/0011): the test wallet sends a valid PayRouter call that is not
 * the route's (another receiver, a smaller amount), the chain mines it, and the server, which
 * proves every payment on chain, fails the record with 'Transaction does not match the route: …';
 * the pay modal ends on 'Payment Failed' (step 6, docs/product.md#step-result) and the link's receiver gets
 * nothing. Each test pays from a fresh funded account, to a fresh receiver, with a fresh attacker.
 */

test.describe.configure({ timeout: 120_000 })

const payRouterAbi = parseAbi([
  'function pay(bytes32 intentId, address token, uint256 amount, address receiver) payable',
  'function deposit(bytes32 intentId, address tokenIn, uint256 amountIn, address[] swapPath, uint256 minEscrowAmount, uint256 destinationChainId, address destinationToken, uint256 minAmountOut, address receiver, uint64 fillDeadline) payable returns (bytes32 orderKey)',
  'function filled(bytes32 orderKey) view returns (bool)',
  'function depositState(bytes32 orderKey) view returns (uint8)',
  'struct Order { bytes32 intentId; uint256 sourceChainId; address payer; address escrowToken; uint256 escrowAmount; address receiver; uint256 destinationChainId; address destinationToken; uint256 minAmountOut; uint64 fillDeadline; }',
  'event Deposited(bytes32 indexed orderKey, bytes32 indexed intentId, address indexed payer, Order order)',
])

/** The record as GET /api/data/transactions/{address} serves it (the fields these tests read). */
type TransactionRecord = {
  intent_id: string
  source_tx_hash: string | null
  status: string
  status_raw: string | null
  error_message: string | null
  to_amount_wei: string | null
  transaction_request: { to: string; data: string; value: string }
}

/** `data` with every occurrence of `from`'s 40 hex digits (lower case) replaced by `to`'s. */
function replaceAddress(data: Hex, from: Address, to: Address): Hex {
  const needle = from.slice(2).toLowerCase()
  expect(data.toLowerCase(), 'the route calldata names the receiver').toContain(needle)
  return data.toLowerCase().replaceAll(needle, to.slice(2).toLowerCase()) as Hex
}

/** A fresh address that has never held anything: the attacker the lying wallet pays. */
function createAttacker(): Address {
  return privateKeyToAccount(generatePrivateKey()).address
}

/**
 * Arms the wallet's next transaction with `rewrite`, clicks 'Confirm & Pay' once the route is ready
 * and waits for 'Payment Failed'. Resolves with what the page asked, the hash the wallet sent
 * (tampered), and the intent the modal posted that hash for.
 */
async function payWithLie(
  page: Page,
  wallet: TestWallet,
  rewrite: (transaction: OutgoingTransaction) => OutgoingTransaction,
): Promise<{ requested: OutgoingTransaction; sent: OutgoingTransaction; hash: Hash; intentId: string }> {
  const confirm = payModal(page, 'Confirm Payment')
  await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 20_000 })
  let requested: OutgoingTransaction | undefined
  let sent: OutgoingTransaction | undefined
  wallet.tamperNextTransaction((transaction) => {
    requested = transaction
    sent = rewrite(transaction)
    return sent
  })
  const sentBefore = wallet.sentTransactions.length
  const receiptPost = page.waitForRequest(
    (request) =>
      request.method() === 'POST' &&
      /^\/api\/route-intent\/[^/]+\/receipt$/.test(new URL(request.url()).pathname),
  )
  await confirm.getByRole('button', { name: 'Confirm & Pay' }).click()
  const post = await receiptPost
  const failed = payModal(page, 'Payment Failed')
  await expect(failed).toBeVisible({ timeout: 60_000 })
  await expect(payModal(page, 'Payment Successful')).toHaveCount(0)

  expect(wallet.sentTransactions).toHaveLength(sentBefore + 1)
  const hash = wallet.sentTransactions[sentBefore] as Hash
  if (requested === undefined || sent === undefined)
    throw new Error('the wallet sent nothing through the tamper hook')
  expect(sent.data, 'the wallet lied').not.toBe(requested.data?.toLowerCase())
  // The modal posted the hash its wallet sent, for the route it built.
  expect((post.postDataJSON() as { txHash: string }).txHash.toLowerCase()).toBe(hash.toLowerCase())
  const intentId = /\/api\/route-intent\/([^/]+)\/receipt$/.exec(new URL(post.url()).pathname)?.[1] ?? ''
  return { requested, sent, hash, intentId: decodeURIComponent(intentId) }
}

/** The failure view and toast (docs/product.md#step-result) with the record's error as the detail. */
async function expectFailureView(page: Page, shot: string): Promise<void> {
  const failed = payModal(page, 'Payment Failed')
  await expect(failed.getByText('Your payment failed. You can close this window.')).toBeVisible()
  await expect(failed.getByText(/^Transaction does not match the route: /)).toBeVisible()
  await expect(failed.getByText('Contact support with the transaction hash', { exact: false })).toBeVisible()
  await expect(toasts(page).getByText('Transaction failed')).toBeVisible()
  await checkScreen(page, `pay-lies-failed-${shot}`, { fullPage: false })
}

/** The tampered transaction was mined and did not revert: the failure is the server's verdict. */
async function expectMinedWithoutRevert(devnet: Devnet, chainId: number, hash: Hash, data: Hex) {
  const client = createPublicClient({ transport: http(getDevnetChain(devnet, chainId).rpcUrl) })
  const receipt = await client.getTransactionReceipt({ hash })
  expect(receipt.status, 'the tampered transaction is a valid PayRouter call').toBe('success')
  expect(receipt.to?.toLowerCase()).toBe(getDevnetChain(devnet, chainId).contracts.payRouter?.toLowerCase())
  const transaction = await client.getTransaction({ hash })
  expect(transaction.input.toLowerCase()).toBe(data.toLowerCase())
  return receipt
}

/** The payer's record of `intentId` from GET /api/data/transactions/{payer}. */
async function readRecord(
  request: APIRequestContext,
  payer: Address,
  intentId: string,
): Promise<TransactionRecord> {
  const response = await request.get(`/api/data/transactions/${payer}`)
  expect(response.status()).toBe(200)
  const { data } = (await response.json()) as { data: TransactionRecord[] }
  const record = data.find((candidate) => candidate.intent_id.toLowerCase() === intentId.toLowerCase())
  if (record === undefined) throw new Error(`no record of intent ${intentId} for ${payer}`)
  return record
}

/** The record is failed by the verification, names the tampered hash, and credits the receiver nothing. */
async function expectLieRecorded(
  request: APIRequestContext,
  payer: Address,
  lie: { hash: Hash; intentId: string; requested: OutgoingTransaction },
): Promise<void> {
  const record = await readRecord(request, payer, lie.intentId)
  expect(record.status).toBe('failed')
  expect(record.status_raw).toBe('failed_mismatch')
  expect(record.error_message ?? '').toMatch(/^Transaction does not match the route: /)
  expect(record.source_tx_hash?.toLowerCase()).toBe(lie.hash.toLowerCase())
  expect(record.to_amount_wei).toBeNull()
  // The route the server stored is what the page asked the wallet to send.
  expect(record.transaction_request.data.toLowerCase()).toBe(lie.requested.data?.toLowerCase())
}

/** The native token's placeholder address, as the routing API names it. */
const nativeToken = nativeTokenAddress

/**
 * Pays `link` honestly, as the pay modal would but through the API: 0.1 AVAX from `payer` on
 * Avalanche to the link's Base USDC (POST /api/local/route, the route's transaction, POST
 * /api/route-intent/{id}/receipt), then waits until its record says the receiver was paid, that
 * is until the relayer has filled it on Base.
 */
async function payAcrossChainsThroughApi(
  request: APIRequestContext,
  devnet: Devnet,
  link: PayLink,
  payer: FreshPayer,
): Promise<void> {
  expect((await request.get('/health')).status(), 'GET /health').toBe(200)
  const csrf = (await request.storageState()).cookies.find((cookie) => cookie.name === 'csrf_token')?.value
  if (csrf === undefined) throw new Error('GET /health set no csrf_token cookie')
  const routeAnswer = await request.post('/api/local/route', {
    headers: { 'X-CSRF-Token': csrf },
    data: {
      fromChain: 43114,
      toChain: 8453,
      fromToken: nativeToken,
      toToken: getDevnetToken(devnet, 8453, 'USDC'),
      fromAmount: parseEther('0.1').toString(),
      fromAddress: payer.address,
      toAddress: link.receiver,
      slippage: 1,
      linkId: link.id,
    },
  })
  expect(routeAnswer.status(), `POST /api/local/route: ${await routeAnswer.text()}`).toBe(200)
  const { intentId, route } = (
    (await routeAnswer.json()) as {
      data: {
        intentId: string
        route: { transactionRequest: { to: Address; data: Hex; value: string; gasLimit: string } }
      }
    }
  ).data
  const avalanche = getDevnetChain(devnet, 43114)
  const transport = http(avalanche.rpcUrl)
  const wallet = createWalletClient({
    account: mnemonicToAccount(devnetMnemonic, { addressIndex: payer.accountIndex }),
    transport,
  })
  const hash = await wallet.sendTransaction({
    chain: null,
    to: route.transactionRequest.to,
    data: route.transactionRequest.data,
    value: BigInt(route.transactionRequest.value),
    gas: BigInt(route.transactionRequest.gasLimit),
  })
  await createPublicClient({ transport }).waitForTransactionReceipt({ hash })
  const receipt = await request.post(`/api/route-intent/${intentId}/receipt`, {
    headers: { 'X-CSRF-Token': csrf },
    data: { txHash: hash },
  })
  expect(receipt.status(), `POST receipt: ${await receipt.text()}`).toBe(202)
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/data/transactions/${payer.address}`)
        const { data } = (await answer.json()) as { data: TransactionRecord[] }
        return data.find((record) => record.intent_id.toLowerCase() === intentId.toLowerCase())?.status
      },
      {
        message: `the honest payment ${intentId} is filled`,
        timeout: 60_000,
      },
    )
    .toBe('success')
}

/** Approves exactly the amount on the confirm step and waits until the allowance suffices. */
async function approveExact(page: Page): Promise<void> {
  const confirm = payModal(page, 'Confirm Payment')
  await confirm.getByRole('button', { name: 'Approve Exact' }).click()
  await expect(confirm.getByText('Allowance sufficient ✓')).toBeVisible({ timeout: 20_000 })
}

test('(a) same chain: a wallet that pays an attacker instead of the receiver ends on Payment Failed', async ({
  page,
  request,
  payee,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  const payer = await fundFreshPayer(devnet, { native: { 8453: parseEther('10') }, baseUsdc: 10_000_000n })
  const link = await payee.createLink()
  const attacker = createAttacker()
  const wallet = await openPayPage(page, devnet, link, payer.accountIndex)
  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Base', 'USDC')
  await enterAmount(page, 'USDC', '2.5')
  await approveExact(page)

  const lie = await payWithLie(page, wallet, (transaction) => ({
    ...transaction,
    data: replaceAddress(transaction.data ?? '0x', link.receiver, attacker),
  }))
  const { args } = decodeFunctionData({ abi: payRouterAbi, data: lie.sent.data ?? '0x' })
  expect(args).toEqual([expect.any(String), getDevnetToken(devnet, 8453, 'USDC'), 2_500_000n, attacker])
  await expectFailureView(page, 'same-chain')

  await expectMinedWithoutRevert(devnet, 8453, lie.hash, lie.sent.data ?? '0x')
  // PayRouter did pay the attacker (the lie is on chain); the link's receiver got nothing.
  expect(await readBaseUsdcBalance(devnet, attacker)).toBe(2_500_000n)
  expect(await readBaseUsdcBalance(devnet, link.receiver)).toBe(0n)
  await expectLieRecorded(request, payer.address, lie)
})

test('(b) same chain: a wallet that pays 1 unit instead of the amount ends on Payment Failed', async ({
  page,
  request,
  payee,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  const payer = await fundFreshPayer(devnet, { native: { 8453: parseEther('10') }, baseUsdc: 10_000_000n })
  const link = await payee.createLink()
  const wallet = await openPayPage(page, devnet, link, payer.accountIndex)
  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Base', 'USDC')
  await enterAmount(page, 'USDC', '2.5')
  await approveExact(page)

  const lie = await payWithLie(page, wallet, (transaction) => {
    const decoded = decodeFunctionData({ abi: payRouterAbi, data: transaction.data ?? '0x' })
    if (decoded.functionName !== 'pay') throw new Error(`expected a pay route, got ${decoded.functionName}`)
    const [intentId, token, , receiver] = decoded.args
    return {
      ...transaction,
      data: encodeFunctionData({
        abi: payRouterAbi,
        functionName: 'pay',
        args: [intentId, token, 1n, receiver],
      }),
    }
  })
  // The route paid 2.5 USDC to the receiver; the wallet sent the same call for 1 unit.
  const usdc = getDevnetToken(devnet, 8453, 'USDC')
  const asked = decodeFunctionData({ abi: payRouterAbi, data: lie.requested.data ?? '0x' })
  expect(asked.args).toEqual([expect.any(String), usdc, 2_500_000n, link.receiver])
  const sent = decodeFunctionData({ abi: payRouterAbi, data: lie.sent.data ?? '0x' })
  expect(sent.args).toEqual([asked.args[0], usdc, 1n, link.receiver])
  await expectFailureView(page, 'pays-less')

  await expectMinedWithoutRevert(devnet, 8453, lie.hash, lie.sent.data ?? '0x')
  // The 1 unit did arrive, and is all the receiver got: not the 2.5 USDC the route asked for.
  expect(await readBaseUsdcBalance(devnet, link.receiver)).toBeLessThanOrEqual(1n)
  await expectLieRecorded(request, payer.address, lie)
})

test('(c) cross chain: a deposit for an attacker instead of the receiver is never filled and ends on Payment Failed', async ({
  page,
  request,
  payee,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  const payer = await fundFreshPayer(devnet, { native: { 43114: parseEther('10') } })
  const link = await payee.createLink()
  const attacker = createAttacker()
  const wallet = await openPayPage(page, devnet, link, payer.accountIndex)
  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Avalanche', 'AVAX')
  expect(wallet.chainId()).toBe(43114)
  await enterAmount(page, 'AVAX', '0.1')

  const lie = await payWithLie(page, wallet, (transaction) => ({
    ...transaction,
    data: replaceAddress(transaction.data ?? '0x', link.receiver, attacker),
  }))
  const { functionName, args } = decodeFunctionData({ abi: payRouterAbi, data: lie.sent.data ?? '0x' })
  expect(functionName).toBe('deposit')
  expect(args[8]).toBe(attacker)
  await expectFailureView(page, 'cross-chain')

  // The deposit was mined and escrowed for the attacker's order.
  const receipt = await expectMinedWithoutRevert(devnet, 43114, lie.hash, lie.sent.data ?? '0x')
  const [deposited] = parseEventLogs({ abi: payRouterAbi, eventName: 'Deposited', logs: receipt.logs })
  expect(deposited?.args.order.receiver).toBe(attacker)
  const orderKey = deposited?.args.orderKey
  if (orderKey === undefined) throw new Error('no Deposited log in the tampered deposit')

  // A relayer that would fill it has had its chance once it has filled an honest deposit mined
  // after this one on the same chain: its scan reads a chain's deposits in block order, and each
  // round takes the oldest due deposit first. It fills only deposits matching their route intent.
  const honestPayer = await fundFreshPayer(devnet, { native: { 43114: parseEther('10') } })
  await payAcrossChainsThroughApi(request, devnet, await payee.createLink(), honestPayer)
  const base = getDevnetChain(devnet, 8453)
  const baseRouter = base.contracts.payRouter
  if (baseRouter === undefined) throw new Error('no PayRouter on Base')
  const baseClient = createPublicClient({ transport: http(base.rpcUrl) })
  expect(
    await baseClient.readContract({
      address: baseRouter,
      abi: payRouterAbi,
      functionName: 'filled',
      args: [orderKey],
    }),
  ).toBe(false)
  expect(await readBaseUsdcBalance(devnet, attacker)).toBe(0n)
  expect(await readBaseUsdcBalance(devnet, link.receiver)).toBe(0n)
  // Still escrowed on Avalanche (1 = open): left for the payer to refund, never settled to the relayer.
  const avalancheRouter = getDevnetChain(devnet, 43114).contracts.payRouter
  if (avalancheRouter === undefined) throw new Error('no PayRouter on Avalanche')
  const avalanche = createPublicClient({ transport: http(getDevnetChain(devnet, 43114).rpcUrl) })
  expect(
    await avalanche.readContract({
      address: avalancheRouter,
      abi: payRouterAbi,
      functionName: 'depositState',
      args: [orderKey],
    }),
  ).toBe(1)
  await expectLieRecorded(request, payer.address, lie)
})
