import type { Page } from '@playwright/test'
import { createPublicClient, type Hex, http, recoverMessageAddress, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, test } from '../fixtures/test.ts'
import { installTestWallet, readDevnetRpcUrls, testWalletInfo } from '../fixtures/test-wallet.ts'

/**
 * The e2e test wallet itself, driven from the page the way a dapp drives it: discovered by
 * EIP-6963, asked through EIP-1193, sending real transactions on the e2e devnet.
 */

type Answer = { result?: unknown; error?: { code: number; message: string } }

/** Calls the announced provider's request() in the page; the error comes back as {code, message}. */
async function walletRequest(page: Page, method: string, params?: unknown[]): Promise<Answer> {
  return page.evaluate(
    async ({ method, params }) => {
      const provider = await new Promise<{ request(args: unknown): Promise<unknown> }>((resolve) => {
        window.addEventListener(
          'eip6963:announceProvider',
          (event) => resolve((event as CustomEvent).detail.provider),
          { once: true },
        )
        window.dispatchEvent(new Event('eip6963:requestProvider'))
      })
      try {
        return { result: await provider.request({ method, ...(params === undefined ? {} : { params }) }) }
      } catch (error) {
        const { code, message } = error as { code: number; message: string }
        return { error: { code, message } }
      }
    },
    { method, params },
  )
}

/** Starts recording the provider's events in the page (window.__events). */
async function recordEvents(page: Page): Promise<void> {
  await page.evaluate(() => {
    const events: [string, unknown][] = []
    ;(window as unknown as { __events: typeof events }).__events = events
    window.addEventListener(
      'eip6963:announceProvider',
      (event) => {
        const provider = (event as CustomEvent).detail.provider as {
          on(name: string, listener: (data: unknown) => void): void
        }
        for (const name of ['connect', 'accountsChanged', 'chainChanged', 'disconnect']) {
          provider.on(name, (data) => events.push([name, data]))
        }
      },
      { once: true },
    )
    window.dispatchEvent(new Event('eip6963:requestProvider'))
  })
}

async function readEvents(page: Page): Promise<[string, unknown][]> {
  return page.evaluate(() => (window as unknown as { __events: [string, unknown][] }).__events)
}

test('announces itself by EIP-6963 and answers accounts, chain id and chain switches', async ({
  page,
  request,
}) => {
  const rpcUrls = await readDevnetRpcUrls(request)
  const wallet = await installTestWallet(page, { accountIndex: 2, chainId: 8453, rpcUrls })
  await page.goto('/')

  const detail = await page.evaluate(
    () =>
      new Promise<{ name: string; rdns: string; icon: string; uuid: string }>((resolve) => {
        window.addEventListener(
          'eip6963:announceProvider',
          (event) => resolve((event as CustomEvent).detail.info),
          { once: true },
        )
        window.dispatchEvent(new Event('eip6963:requestProvider'))
      }),
  )
  expect(detail).toMatchObject({ name: testWalletInfo.name, rdns: 'dev.quicklinks.testwallet' })
  expect(detail.icon).toMatch(/^data:image\/svg\+xml;base64,/)
  expect(detail.uuid).toMatch(/^[0-9a-f-]{36}$/)

  await recordEvents(page)
  expect(await walletRequest(page, 'eth_chainId')).toEqual({ result: '0x2105' })
  expect(await walletRequest(page, 'net_version')).toEqual({ result: '8453' })
  expect(await walletRequest(page, 'eth_accounts')).toEqual({ result: [] })
  expect(await walletRequest(page, 'eth_requestAccounts')).toEqual({ result: [wallet.address] })
  expect(await walletRequest(page, 'eth_accounts')).toEqual({ result: [wallet.address] })

  expect(await walletRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0xa86a' }])).toEqual({
    result: null,
  })
  expect(await walletRequest(page, 'eth_chainId')).toEqual({ result: '0xa86a' })
  expect(wallet.chainId()).toBe(43114)
  // Reads go to the current chain's devnet RPC.
  const avalancheBlock = await walletRequest(page, 'eth_blockNumber')
  expect(avalancheBlock.result).toMatch(/^0x[0-9a-f]+$/)

  const unknown = await walletRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x1' }])
  expect(unknown.error?.code).toBe(4902)
  expect(await walletRequest(page, 'eth_chainId')).toEqual({ result: '0xa86a' })

  expect(await readEvents(page)).toEqual([
    ['connect', { chainId: '0x2105' }],
    ['accountsChanged', [wallet.address]],
    ['chainChanged', '0xa86a'],
  ])

  // From the wallet's side: a chain switch, then a disconnect.
  await wallet.setChain(8453)
  await wallet.disconnect()
  expect((await readEvents(page)).slice(3)).toEqual([
    ['chainChanged', '0x2105'],
    ['accountsChanged', []],
    ['disconnect', { code: 4900, message: 'The provider is disconnected from all chains.' }],
  ])
  expect(await walletRequest(page, 'eth_accounts')).toEqual({ result: [] })
  expect((await walletRequest(page, 'personal_sign', [toHex('hi'), wallet.address])).error?.code).toBe(4100)
})

test('adds a chain it does not know (4902 first) and switches to it', async ({ page, request }) => {
  const rpcUrls = await readDevnetRpcUrls(request)
  await installTestWallet(page, { accountIndex: 2, chainId: 8453, rpcUrls, knownChainIds: [8453] })
  await page.goto('/')
  const switched = await walletRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0xa86a' }])
  expect(switched.error?.code).toBe(4902)
  const added = await walletRequest(page, 'wallet_addEthereumChain', [
    {
      chainId: '0xa86a',
      chainName: 'Avalanche',
      nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
      rpcUrls: [rpcUrls[43114]],
    },
  ])
  expect(added).toEqual({ result: null })
  expect(await walletRequest(page, 'eth_chainId')).toEqual({ result: '0xa86a' })
})

test('sends a real transaction on the devnet, signs messages, and rejects once when told', async ({
  page,
  request,
}) => {
  const rpcUrls = await readDevnetRpcUrls(request)
  const wallet = await installTestWallet(page, { accountIndex: 2, chainId: 8453, rpcUrls })
  await page.goto('/')
  await walletRequest(page, 'eth_requestAccounts')
  const receiver = privateKeyToAccount(generatePrivateKey()).address
  const send = () =>
    walletRequest(page, 'eth_sendTransaction', [
      { from: wallet.address, to: receiver, value: toHex(12_345n) },
    ])

  wallet.rejectNext()
  expect(await send()).toEqual({ error: { code: 4001, message: 'User rejected the request.' } })
  expect(wallet.sentTransactions).toEqual([])

  const sent = await send()
  const hash = sent.result as Hex
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
  expect(wallet.sentTransactions).toEqual([hash])
  // The page reads the receipt through the wallet, which forwards to the devnet.
  await expect
    .poll(
      async () =>
        (
          (await walletRequest(page, 'eth_getTransactionReceipt', [hash])).result as {
            status?: string
          } | null
        )?.status,
    )
    .toBe('0x1')
  const base = createPublicClient({ transport: http(rpcUrls[8453]) })
  expect(await base.getBalance({ address: receiver })).toBe(12_345n)

  const message = toHex('Quick Links test')
  const signed = await walletRequest(page, 'personal_sign', [message, wallet.address])
  expect(await recoverMessageAddress({ message: { raw: message }, signature: signed.result as Hex })).toBe(
    wallet.address,
  )

  // A reverting transaction comes back as an error, not a hang.
  const reverting = await walletRequest(page, 'eth_sendTransaction', [
    // USDC transfer of more than the account holds: transfer(receiver, 2^255).
    {
      from: wallet.address,
      to: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      data: `0xa9059cbb${receiver.slice(2).padStart(64, '0')}8${'0'.repeat(63)}`,
    },
  ])
  expect(reverting.error?.code).toEqual(expect.any(Number))
  expect(reverting.error?.code).not.toBe(4001)
})
