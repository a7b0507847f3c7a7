import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseAbi,
  toFunctionSelector,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import {
  chooseChainAndToken,
  connectTestWallet,
  type Devnet,
  enterAmount,
  expect,
  fundFreshPayer,
  getDevnetChain,
  getDevnetToken,
  openPayPage,
  payModal,
  readBaseUsdcBalance,
  readTokenBalance,
  test,
} from '../fixtures/pay.ts'

/**
 * One confirmation where the wallet allows it (docs/product.md#one-confirmation): a wallet with
 * ERC-5792 atomic batches approves and pays in one wallet_sendCalls; a wallet without it pays a
 * plain token in two transactions (approve, then pay); a permit token (the devnet's USDC) is paid
 * with a signature and one transaction, with no approve. Each test pays from a brand-new account.
 */

test.describe.configure({ timeout: 120_000 })

const approveSelector = toFunctionSelector('function approve(address spender, uint256 amount)')
const permitAndCallSelector = toFunctionSelector(
  'function permitAndCall(address token, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s, bytes data)',
)
const mintAbi = parseAbi(['function mint(address to, uint256 amount)'])

function count(requests: readonly string[], method: string): number {
  return requests.filter((request) => request === method).length
}

/** The mined transactions' `to` and calldata selector, read from the chain. */
async function readSentCalls(devnet: Devnet, hashes: readonly Hex[]) {
  const client = createPublicClient({ transport: http(getDevnetChain(devnet, 8453).rpcUrl) })
  return Promise.all(
    hashes.map(async (hash) => {
      const [transaction, receipt] = await Promise.all([
        client.getTransaction({ hash }),
        client.getTransactionReceipt({ hash }),
      ])
      return {
        from: getAddress(transaction.from),
        to: transaction.to === null ? null : getAddress(transaction.to),
        selector: transaction.input.slice(0, 10),
        status: receipt.status,
      }
    }),
  )
}

async function readPayRouterAllowance(devnet: Devnet, token: Address, owner: Address): Promise<bigint> {
  const chain = getDevnetChain(devnet, 8453)
  const client = createPublicClient({ transport: http(chain.rpcUrl) })
  return client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, chain.contracts.payRouter as Address],
  })
}

test('a wallet with ERC-5792 pays a token in one request: approve and pay as one wallet_sendCalls', async ({
  page,
  payee,
  devnet,
}) => {
  const payer = await fundFreshPayer(devnet, { native: { 8453: 10n ** 18n }, baseUsdc: 5_000_000n })
  const delegates = Object.fromEntries(
    devnet.chains.map((chain) => [chain.chainId, chain.contracts.simple7702Account as Address]),
  )
  const link = await payee.createLink()
  const wallet = await openPayPage(page, devnet, link, payer.accountIndex, { erc5792Delegates: delegates })
  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Base', 'USDC')
  const confirm = await enterAmount(page, 'USDC', '2.5')
  await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 20_000 })
  await expect(confirm.getByText('Confirm & Pay approves and pays in one confirmation.')).toBeVisible()

  await confirm.getByRole('button', { name: 'Confirm & Pay' }).click()
  await expect(payModal(page, 'Payment Successful')).toBeVisible({ timeout: 60_000 })

  expect(count(wallet.requests, 'wallet_sendCalls')).toBe(1)
  expect(count(wallet.requests, 'eth_sendTransaction')).toBe(0)
  expect(count(wallet.requests, 'eth_signTypedData_v4')).toBe(0)
  const [batch] = wallet.sentBatches
  const usdc = getDevnetToken(devnet, 8453, 'USDC')
  const payRouter = getDevnetChain(devnet, 8453).contracts.payRouter
  expect(batch?.calls.map((call) => [call.to, call.data.slice(0, 10)])).toEqual([
    [usdc, approveSelector],
    [payRouter, toFunctionSelector('function pay(bytes32,address,uint256,address)')],
  ])
  // On chain: one transaction of the payer to itself (its EIP-7702 account) ran both.
  expect(await readSentCalls(devnet, wallet.sentTransactions)).toEqual([
    { from: payer.address, to: payer.address, selector: expect.any(String), status: 'success' },
  ])
  await expect.poll(() => readBaseUsdcBalance(devnet, link.receiver)).toBe(2_500_000n)
})

test('a wallet without ERC-5792 pays a plain token in two requests: Approve Exact, then Confirm & Pay', async ({
  page,
  payee,
  devnet,
}) => {
  const payer = await fundFreshPayer(devnet, { native: { 8453: 10n ** 18n } })
  const usdt = getDevnetToken(devnet, 8453, 'USDT')
  // The devnet's tokens are minted by account 0, their deployer.
  const base = getDevnetChain(devnet, 8453)
  const minter = createWalletClient({
    account: mnemonicToAccount(devnetMnemonic, { addressIndex: 0 }),
    transport: http(base.rpcUrl),
  })
  const minted = await minter.writeContract({
    chain: null,
    address: usdt,
    abi: mintAbi,
    functionName: 'mint',
    args: [payer.address, 5_000_000n],
  })
  await createPublicClient({ transport: http(base.rpcUrl) }).waitForTransactionReceipt({ hash: minted })

  const link = await payee.createLink()
  const wallet = await openPayPage(page, devnet, link, payer.accountIndex)
  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Base', 'USDT')
  const confirm = await enterAmount(page, 'USDT', '3')
  await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 20_000 })
  await expect(confirm.getByRole('button', { name: 'Confirm & Pay' })).toBeDisabled()
  await expect(confirm.getByText(/in one confirmation|signs a permit/)).toHaveCount(0)

  await confirm.getByRole('button', { name: 'Approve Exact' }).click()
  await expect(confirm.getByText('Allowance sufficient ✓')).toBeVisible({ timeout: 20_000 })
  await confirm.getByRole('button', { name: 'Confirm & Pay' }).click()
  await expect(payModal(page, 'Payment Successful')).toBeVisible({ timeout: 60_000 })

  // The app asked for the wallet's capabilities, got none, and sent two transactions.
  expect(wallet.requests).toContain('wallet_getCapabilities')
  expect(count(wallet.requests, 'wallet_sendCalls')).toBe(0)
  expect(count(wallet.requests, 'eth_sendTransaction')).toBe(2)
  expect(await readSentCalls(devnet, wallet.sentTransactions)).toEqual([
    { from: payer.address, to: usdt, selector: approveSelector, status: 'success' },
    { from: payer.address, to: base.contracts.payRouter, selector: expect.any(String), status: 'success' },
  ])
  await expect.poll(() => readBaseUsdcBalance(devnet, link.receiver)).toBeGreaterThan(2_900_000n)
  expect(await readTokenBalance(devnet, 8453, usdt, payer.address)).toBe(2_000_000n)
})

test('a permit payment sends no approve: the permit is signed and the payment is one transaction', async ({
  page,
  payee,
  devnet,
}) => {
  const payer = await fundFreshPayer(devnet, { native: { 8453: 10n ** 18n }, baseUsdc: 5_000_000n })
  const usdc = getDevnetToken(devnet, 8453, 'USDC')
  const link = await payee.createLink()
  const wallet = await openPayPage(page, devnet, link, payer.accountIndex)
  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Base', 'USDC')
  const confirm = await enterAmount(page, 'USDC', '1.5')
  await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 20_000 })
  await expect(
    confirm.getByText('Confirm & Pay signs a permit instead: no approval transaction.'),
  ).toBeVisible()

  await confirm.getByRole('button', { name: 'Confirm & Pay' }).click()
  await expect(payModal(page, 'Payment Successful')).toBeVisible({ timeout: 60_000 })

  expect(count(wallet.requests, 'eth_signTypedData_v4')).toBe(1)
  expect(count(wallet.requests, 'eth_sendTransaction')).toBe(1)
  expect(count(wallet.requests, 'wallet_sendCalls')).toBe(0)
  const sent = await readSentCalls(devnet, wallet.sentTransactions)
  expect(sent).toEqual([
    {
      from: payer.address,
      to: getDevnetChain(devnet, 8453).contracts.payRouter,
      selector: permitAndCallSelector,
      status: 'success',
    },
  ])
  expect(sent.some((call) => call.selector === approveSelector)).toBe(false)
  // The permit's allowance was spent in the same transaction: none is left standing.
  expect(await readPayRouterAllowance(devnet, usdc, payer.address)).toBe(0n)
  await expect.poll(() => readBaseUsdcBalance(devnet, link.receiver)).toBe(1_500_000n)
})
