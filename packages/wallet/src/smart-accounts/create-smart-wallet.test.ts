import { quickLinksAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-account-factory'
import { quickLinksMultiOwnerAccountAbi } from '@quicklinks/contracts/generated/quick-links-multi-owner-account'
import { testTokenAbi } from '@quicklinks/contracts/generated/test-token'
import { getDevnetAccount } from '@quicklinks/devnet/get-devnet-account'
import {
  type Address,
  concatHex,
  encodeFunctionData,
  hashMessage,
  http,
  type LocalAccount,
  parseEther,
  parseUnits,
  zeroAddress,
} from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import {
  getBalance,
  getCode,
  readContract,
  setBalance,
  verifyMessage,
  verifyTypedData,
  waitForTransactionReceipt,
  writeContract,
} from 'viem/actions'
import { isErc6492Signature } from 'viem/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type SmartAccountDevnetChain,
  startSmartAccountDevnetChain,
  startTestSponsor,
  type TestSponsor,
  testPolicyId,
} from '../../test/smart-account-devnet.ts'
import { createSignerAccount } from '../create-signer-account.ts'
import { SponsorshipRefusedError } from '../wallet-error.ts'
import { createSmartWallet } from './create-smart-wallet.ts'
import { createSmartAccountStore, getSmartAccountStates } from './smart-account-store.ts'
import type { SmartSendProgress, SmartWallet, SmartWalletOptions } from './smart-wallet-types.ts'
import { buildUpdateOwnersCall, getReplaySafeTypedData } from './to-quick-links-smart-account.ts'

// Two real devnet chains (anvil, Prague, the devnet's contracts) with a real Alto bundler each.
let base: SmartAccountDevnetChain
let avalanche: SmartAccountDevnetChain
let sponsor: TestSponsor
const funder = getDevnetAccount(0)

beforeAll(async () => {
  ;[base, avalanche] = await Promise.all([
    startSmartAccountDevnetChain({ chainId: 8453 }),
    startSmartAccountDevnetChain({ chainId: 43114 }),
  ])
  sponsor = await startTestSponsor(base)
}, 240_000)

afterAll(async () => {
  await sponsor?.stop()
  await Promise.all([base?.stop(), avalanche?.stop()])
})

/** A signer-style owner: a `toAccount` LocalAccount that signs digests only, like the app's. */
function createDigestOwner(): LocalAccount {
  const key = privateKeyToAccount(generatePrivateKey())
  return createSignerAccount({ address: key.address, signHash: (hash) => key.sign({ hash }) })
}

function createWallet(
  owner: LocalAccount,
  withSponsor = false,
  onAccountState?: SmartWalletOptions['onAccountState'],
): SmartWallet {
  return createSmartWallet({
    owner,
    onAccountState,
    chains: [base.config, avalanche.config],
    transports: (chainId) => {
      const chain = chainId === base.chainId ? base : avalanche
      return {
        rpc: http(chain.rpcUrl),
        bundler: http(chain.bundlerUrl),
        ...(withSponsor && chainId === base.chainId ? { paymaster: http(sponsor.url) } : {}),
      }
    },
  })
}

function usdcOf(chain: SmartAccountDevnetChain): Address {
  const usdc = chain.deployment.tokens.find((token) => token.symbol === 'USDC')
  if (!usdc) throw new Error('no USDC')
  return usdc.address
}

function usdcBalance(chain: SmartAccountDevnetChain, owner: Address): Promise<bigint> {
  return readContract(chain.client, {
    address: usdcOf(chain),
    abi: testTokenAbi,
    functionName: 'balanceOf',
    args: [owner],
  })
}

async function fundUsdc(chain: SmartAccountDevnetChain, to: Address, amount: bigint): Promise<void> {
  const hash = await writeContract(chain.client, {
    account: funder,
    chain: null,
    address: usdcOf(chain),
    abi: testTokenAbi,
    functionName: 'transfer',
    args: [to, amount],
  })
  await waitForTransactionReceipt(chain.client, { hash })
}

function transferUsdc(chain: SmartAccountDevnetChain, to: Address, amount: bigint) {
  return {
    to: usdcOf(chain),
    data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [to, amount] }),
  }
}

const oneUsdc = parseUnits('1', 6)

describe('createSmartWallet on the devnet', { timeout: 60_000 }, () => {
  it('gives an owner one counterfactual address on every chain, the factory’s, undeployed', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const wallet = createWallet(owner)
    const address = await wallet.getAddress()
    const onEachChain = await Promise.all(
      [base, avalanche].map((chain) =>
        readContract(chain.client, {
          address: chain.config.accountFactory,
          abi: quickLinksAccountFactoryAbi,
          functionName: 'getAddress',
          args: [owner.address, 0n],
        }),
      ),
    )
    expect(onEachChain).toEqual([address, address])
    expect(await wallet.isDeployed(base.chainId)).toBe(false)
    expect(await wallet.isDeployed(avalanche.chainId)).toBe(false)
    // Another owner, another account.
    expect(await createWallet(privateKeyToAccount(generatePrivateKey())).getAddress()).not.toBe(address)
  })

  it('reports each account type per chain to the persisted store: CONNECTING, then CONNECTED with the address', async () => {
    const storage = new Map<string, string>()
    const storageLike = {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    }
    const store = createSmartAccountStore({ storage: storageLike })
    const seen: string[] = []
    const owner = privateKeyToAccount(generatePrivateKey())
    const wallet = createWallet(owner, false, (chainId, accountType, state) => {
      seen.push(`${chainId} ${accountType} ${state.status}`)
      store.getState().setAccountState(chainId, accountType, state)
    })
    const address = await wallet.getAddress()
    await wallet.isDeployed(avalanche.chainId)
    await wallet.getAddress('MultiOwnerLightAccount')

    expect(seen).toEqual([
      `${base.chainId} LightAccount CONNECTING`,
      `${base.chainId} LightAccount CONNECTED`,
      `${avalanche.chainId} LightAccount CONNECTING`,
      `${avalanche.chainId} LightAccount CONNECTED`,
      `${base.chainId} MultiOwnerLightAccount CONNECTING`,
      `${base.chainId} MultiOwnerLightAccount CONNECTED`,
    ])
    const onBase = getSmartAccountStates(store.getState(), base.chainId)
    expect(onBase.LightAccount).toEqual({ status: 'CONNECTED', account: address })
    expect(onBase.MultiOwnerLightAccount.status).toBe('CONNECTED')
    expect(onBase.ModularAccountV2).toEqual({ status: 'DISCONNECTED', account: null })
    expect(getSmartAccountStates(store.getState(), avalanche.chainId).LightAccount.account).toBe(address)
    // What a reload reads back: the same addresses, under the store's version.
    const reloaded = createSmartAccountStore({ storage: storageLike })
    expect(getSmartAccountStates(reloaded.getState(), avalanche.chainId).LightAccount).toEqual({
      status: 'CONNECTED',
      account: address,
    })
  })

  it('sends 1 USDC out of a funded, undeployed account that pays its own gas, deploying it', async () => {
    const wallet = createWallet(createDigestOwner())
    const account = await wallet.getAddress()
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    await fundUsdc(base, account, parseUnits('5', 6))
    await setBalance(base.testClient, { address: account, value: parseEther('1') })

    const progress: SmartSendProgress['step'][] = []
    const result = await wallet.send({
      chainId: base.chainId,
      calls: [transferUsdc(base, recipient, oneUsdc)],
      onProgress: (step) => progress.push(step.step),
    })

    expect(result.success).toBe(true)
    expect(result.sponsored).toBe(false)
    expect(progress).toEqual(['preparing', 'signing', 'submitted', 'included'])
    expect(await usdcBalance(base, recipient)).toBe(oneUsdc)
    expect(await usdcBalance(base, account)).toBe(parseUnits('4', 6))
    // The account paid exactly what the EntryPoint charged (the unused prefund is its deposit there).
    const deposit = await readContract(base.client, {
      address: base.config.entryPoint,
      abi: entryPoint08Abi,
      functionName: 'balanceOf',
      args: [account],
    })
    expect((await getBalance(base.client, { address: account })) + deposit).toBe(
      parseEther('1') - result.actualGasCost,
    )
    expect(await wallet.isDeployed(base.chainId)).toBe(true)
    expect(await wallet.isDeployed(avalanche.chainId)).toBe(false)
    const transaction = await waitForTransactionReceipt(base.client, { hash: result.transactionHash })
    expect(transaction.status).toBe('success')

    // A second operation (deployed account, next nonce) works as well, as a batch.
    const batch = await wallet.send({
      chainId: base.chainId,
      calls: [transferUsdc(base, recipient, oneUsdc), transferUsdc(base, recipient, oneUsdc)],
    })
    expect(batch.success).toBe(true)
    expect(await usdcBalance(base, recipient)).toBe(3n * oneUsdc)
  })

  it('the bundler refuses an operation of an account signed by a key that does not own it; nothing moves', async () => {
    const victim = privateKeyToAccount(generatePrivateKey())
    const stranger = privateKeyToAccount(generatePrivateKey())
    // A signer that claims the victim's address but signs with another key.
    const impostor = createSignerAccount({
      address: victim.address,
      signHash: (hash) => stranger.sign({ hash }),
    })
    const wallet = createWallet(impostor)
    const account = await wallet.getAddress()
    expect(account).toBe(await createWallet(victim).getAddress())
    await fundUsdc(base, account, oneUsdc)
    await setBalance(base.testClient, { address: account, value: parseEther('1') })
    const thief = privateKeyToAccount(generatePrivateKey()).address
    await expect(
      wallet.send({ chainId: base.chainId, calls: [transferUsdc(base, thief, oneUsdc)] }),
    ).rejects.toThrow(/AA24|signature/i)
    expect(await usdcBalance(base, account)).toBe(oneUsdc)
    expect(await usdcBalance(base, thief)).toBe(0n)
    expect(await wallet.isDeployed(base.chainId)).toBe(false)
  })

  it('signs messages as the account: ERC-6492 before deployment, ERC-1271 after, bound to account and chain', async () => {
    const owner = createDigestOwner()
    const wallet = createWallet(owner)
    const address = await wallet.getAddress()
    const message = 'Sign in to Quick Links'

    const before = await wallet.signMessage({ chainId: base.chainId, message })
    expect(isErc6492Signature(before)).toBe(true)
    expect(await verifyMessage(base.client, { address, message, signature: before })).toBe(true)
    expect(await verifyMessage(base.client, { address, message: 'another message', signature: before })).toBe(
      false,
    )
    // Made for Base: Avalanche's domain differs, so it does not verify there.
    expect(await verifyMessage(avalanche.client, { address, message, signature: before })).toBe(false)

    // Another key signing the very digest this account's owner would sign is refused.
    const stranger = privateKeyToAccount(generatePrivateKey())
    const forged = await stranger.signTypedData(
      getReplaySafeTypedData({ account: address, chainId: base.chainId, hash: hashMessage(message) }),
    )
    // The owner's plain EOA signature is not the account's either (not replay-safe).
    const plain = await owner.signMessage({ message })

    // Deploy it (anyone may call the factory).
    const hash = await writeContract(base.client, {
      account: funder,
      chain: null,
      address: base.config.accountFactory,
      abi: quickLinksAccountFactoryAbi,
      functionName: 'createAccount',
      args: [owner.address, 0n],
    })
    await waitForTransactionReceipt(base.client, { hash })
    expect(await wallet.isDeployed(base.chainId)).toBe(true)

    const after = await wallet.signMessage({ chainId: base.chainId, message })
    expect(isErc6492Signature(after)).toBe(false)
    expect(await verifyMessage(base.client, { address, message, signature: after })).toBe(true)
    expect(await verifyMessage(base.client, { address, message, signature: forged })).toBe(false)
    expect(await verifyMessage(base.client, { address, message, signature: plain })).toBe(false)

    const typedData = {
      domain: { name: 'Quick Links', version: '1', chainId: base.chainId },
      types: { Note: [{ name: 'text', type: 'string' }] },
      primaryType: 'Note',
      message: { text: 'hello' },
    } as const
    const typedSignature = await wallet.signTypedData({ chainId: base.chainId, typedData })
    expect(await verifyTypedData(base.client, { address, ...typedData, signature: typedSignature })).toBe(
      true,
    )
    expect(
      await verifyTypedData(base.client, {
        address,
        ...typedData,
        message: { text: 'bye' },
        signature: typedSignature,
      }),
    ).toBe(false)
  })

  it('sends a sponsored operation from an account with 0 ETH; a refused sponsorship is a typed error, and self-paid then works', async () => {
    const wallet = createWallet(createDigestOwner(), true)
    const account = await wallet.getAddress()
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    await fundUsdc(base, account, parseUnits('3', 6))
    expect(await getBalance(base.client, { address: account })).toBe(0n)

    const progress: SmartSendProgress['step'][] = []
    const result = await wallet.send({
      chainId: base.chainId,
      calls: [transferUsdc(base, recipient, oneUsdc)],
      policyId: testPolicyId,
      onProgress: (step) => progress.push(step.step),
    })
    expect(result).toMatchObject({ success: true, sponsored: true })
    expect(result.actualGasCost).toBeGreaterThan(0n)
    expect(progress).toEqual(['preparing', 'sponsoring', 'signing', 'submitted', 'included'])
    expect(await usdcBalance(base, recipient)).toBe(oneUsdc)
    expect(await getBalance(base.client, { address: account })).toBe(0n)
    expect(await wallet.isDeployed(base.chainId)).toBe(true)

    sponsor.refuse = 'POLICY_SPENT'
    const signedBefore = sponsor.signedCount
    const refused = await wallet
      .send({
        chainId: base.chainId,
        calls: [transferUsdc(base, recipient, oneUsdc)],
        policyId: testPolicyId,
      })
      .catch((error: unknown) => error)
    sponsor.refuse = null
    expect(refused).toBeInstanceOf(SponsorshipRefusedError)
    expect(refused).toMatchObject({
      reason: 'POLICY_SPENT',
      walletCode: 'SPONSORSHIP_REFUSED',
      resetsAt: '2030-01-01T00:00:00.000Z',
    })
    expect((refused as SponsorshipRefusedError).userMessage).toBe(
      'Gas sponsorship for today is used up. Pay the gas from your account, or try again after 00:00 UTC.',
    )
    expect(sponsor.signedCount).toBe(signedBefore)
    expect(await usdcBalance(base, recipient)).toBe(oneUsdc)

    const unknown = await wallet
      .send({
        chainId: base.chainId,
        calls: [transferUsdc(base, recipient, oneUsdc)],
        policyId: 'no-such-policy',
      })
      .catch((error: unknown) => error)
    expect(unknown).toMatchObject({ reason: 'UNKNOWN_POLICY' })

    // Asking for sponsorship where no sponsor is configured fails before anything is signed.
    await expect(
      wallet.send({
        chainId: avalanche.chainId,
        calls: [transferUsdc(avalanche, recipient, 1n)],
        policyId: testPolicyId,
      }),
    ).rejects.toThrow(/not available/)

    // The user pays the gas themselves instead.
    await setBalance(base.testClient, { address: account, value: parseEther('1') })
    const selfPaid = await wallet.send({
      chainId: base.chainId,
      calls: [transferUsdc(base, recipient, oneUsdc)],
    })
    expect(selfPaid).toMatchObject({ success: true, sponsored: false })
    expect(await usdcBalance(base, recipient)).toBe(2n * oneUsdc)
  })

  it('EIP-7702: a 0-ETH EOA delegates to Simple7702Account and sends sponsored operations from its own address', async () => {
    const owner = createDigestOwner()
    const wallet = createWallet(owner, true)
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    await fundUsdc(base, owner.address, parseUnits('3', 6))
    expect(await getBalance(base.client, { address: owner.address })).toBe(0n)

    const first = await wallet.send({
      chainId: base.chainId,
      accountType: 'EIP7702',
      calls: [transferUsdc(base, recipient, oneUsdc)],
      policyId: testPolicyId,
    })
    expect(first).toMatchObject({ success: true, sponsored: true })
    expect(await getCode(base.client, { address: owner.address })).toBe(
      concatHex(['0xef0100', base.config.simple7702Account]).toLowerCase(),
    )
    expect(await usdcBalance(base, owner.address)).toBe(parseUnits('2', 6))
    expect(await usdcBalance(base, recipient)).toBe(oneUsdc)
    expect(await getBalance(base.client, { address: owner.address })).toBe(0n)

    // Delegated now: the next operation carries no authorization.
    const second = await wallet.send({
      chainId: base.chainId,
      accountType: 'EIP7702',
      calls: [transferUsdc(base, recipient, oneUsdc)],
      policyId: testPolicyId,
    })
    expect(second.success).toBe(true)
    expect(await usdcBalance(base, owner.address)).toBe(oneUsdc)
  })

  it('a multi-owner account is deployed with its owners by its first operation; its signatures are its own', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const coOwner = privateKeyToAccount(generatePrivateKey()).address
    const wallet = createSmartWallet({
      owner,
      owners: [owner.address, coOwner],
      chains: [base.config],
      transports: () => ({ rpc: http(base.rpcUrl), bundler: http(base.bundlerUrl) }),
    })
    const account = await wallet.getAddress('MultiOwnerLightAccount')
    expect(account).toBe(await wallet.getAddress('MultiOwnerModularAccount'))
    expect(account).not.toBe(await wallet.getAddress('LightAccount'))
    await setBalance(base.testClient, { address: account, value: parseEther('1') })
    const result = await wallet.send({
      chainId: base.chainId,
      accountType: 'MultiOwnerLightAccount',
      calls: [{ to: zeroAddress, value: 1n }],
    })
    expect(result.success).toBe(true)
    const owners = await readContract(base.client, {
      address: account,
      abi: quickLinksMultiOwnerAccountAbi,
      functionName: 'owners',
    })
    expect(owners).toEqual([owner.address, coOwner])
    const signature = await wallet.signMessage({
      chainId: base.chainId,
      message: 'hi',
      accountType: 'MultiOwnerLightAccount',
    })
    expect(await verifyMessage(base.client, { address: account, message: 'hi', signature })).toBe(true)

    // The same owner's single-owner account, deployed too: a signature made for one account is
    // not valid for the other (the replay-safe digest names the account).
    const single = await wallet.getAddress('LightAccount')
    const hash = await writeContract(base.client, {
      account: funder,
      chain: null,
      address: base.config.accountFactory,
      abi: quickLinksAccountFactoryAbi,
      functionName: 'createAccount',
      args: [owner.address, 0n],
    })
    await waitForTransactionReceipt(base.client, { hash })
    const singleSignature = await wallet.signMessage({ chainId: base.chainId, message: 'hi' })
    expect(
      await verifyMessage(base.client, { address: single, message: 'hi', signature: singleSignature }),
    ).toBe(true)
    expect(
      await verifyMessage(base.client, { address: account, message: 'hi', signature: singleSignature }),
    ).toBe(false)
    expect(await verifyMessage(base.client, { address: single, message: 'hi', signature })).toBe(false)

    // The account changes its owners itself: the co-owner leaves, a new one joins.
    const newcomer = privateKeyToAccount(generatePrivateKey())
    const update = await wallet.send({
      chainId: base.chainId,
      accountType: 'MultiOwnerLightAccount',
      calls: [
        buildUpdateOwnersCall({ account, added: [newcomer.address], removed: [coOwner], threshold: 1 }),
      ],
    })
    expect(update.success).toBe(true)
    expect(
      await readContract(base.client, {
        address: account,
        abi: quickLinksMultiOwnerAccountAbi,
        functionName: 'owners',
      }),
    ).toEqual([owner.address, newcomer.address])
    const newcomerWallet = createSmartWallet({
      owner: newcomer,
      owners: [owner.address, coOwner],
      chains: [base.config],
      transports: () => ({ rpc: http(base.rpcUrl), bundler: http(base.bundlerUrl) }),
    })
    // Same address (it depends on the initial owners), and the newcomer now signs for it.
    expect(await newcomerWallet.getAddress('MultiOwnerLightAccount')).toBe(account)
    const byNewcomer = await newcomerWallet.signMessage({
      chainId: base.chainId,
      message: 'hi',
      accountType: 'MultiOwnerLightAccount',
    })
    expect(await verifyMessage(base.client, { address: account, message: 'hi', signature: byNewcomer })).toBe(
      true,
    )
  })
})
