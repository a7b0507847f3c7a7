import { quickLinksAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-account-factory'
import { getDevnetAccount } from '@quicklinks/devnet/get-devnet-account'
import { type Address, createWalletClient, encodeFunctionData, type Hex, hashMessage, http } from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { isErc6492Signature, serializeErc6492Signature } from 'viem/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, getSetCookie, type TestApp } from '../../../test/build-test-app.ts'
import {
  type SmartAccountTestChain,
  startSmartAccountTestChain,
} from '../../../test/start-smart-account-chain.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const publicOrigin = 'https://pay.example.com'

describe('SIWE sign-in as a smart account (ERC-6492 before deployment, ERC-1271 after)', () => {
  let chain: SmartAccountTestChain
  let testApp: TestApp
  beforeAll(async () => {
    chain = await startSmartAccountTestChain({ withBundler: false })
    testApp = await buildTestApp({ publicOrigin, rpcUrls: { [chain.chainId]: chain.rpcUrl } })
  }, 120_000)
  afterAll(async () => {
    await testApp?.close()
    await chain?.stop()
  })

  const factory = () => chain.deployment.contracts.accountFactory

  async function smartAccountOf(owner: Address): Promise<Address> {
    return chain.client.readContract({
      address: factory(),
      abi: quickLinksAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner, 0n],
    })
  }

  /** A SIWE message for `address` on the test chain, with a fresh nonce of the app. */
  async function buildMessage(address: Address): Promise<string> {
    const nonce = (await testApp.app.inject({ method: 'GET', url: '/api/auth/nonce' })).json().data
      .nonce as string
    return createSiweMessage({
      address,
      chainId: chain.chainId,
      domain: 'pay.example.com',
      nonce,
      uri: publicOrigin,
      version: '1',
      issuedAt: new Date(),
    })
  }

  /** What QuickLinksAccount's isValidSignature checks: `signer`'s signature over replaySafeHash(hash). */
  function signAsAccount(signer: PrivateKeyAccount, account: Address, message: string): Promise<Hex> {
    return signer.signTypedData({
      domain: { name: 'QuickLinksAccount', version: '1', chainId: chain.chainId, verifyingContract: account },
      types: { QuickLinksMessage: [{ name: 'hash', type: 'bytes32' }] },
      primaryType: 'QuickLinksMessage',
      message: { hash: hashMessage(message) },
    })
  }

  /** The ERC-6492 wrapper of an undeployed account: its factory call, then the account's signature. */
  function wrapForUndeployed(owner: Address, signature: Hex): Hex {
    return serializeErc6492Signature({
      address: factory(),
      data: encodeFunctionData({
        abi: quickLinksAccountFactoryAbi,
        functionName: 'createAccount',
        args: [owner, 0n],
      }),
      signature,
    })
  }

  const login = (message: string, signature: Hex) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      cookies: { csrf_token: csrf },
      headers: { 'x-csrf-token': csrf },
      payload: { message, signature },
    })

  it('signs the account in with a 6492 signature before deployment and a 1271 signature after it', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await smartAccountOf(owner.address)
    expect(await chain.client.getCode({ address: account })).toBeUndefined()

    const first = await buildMessage(account)
    const wrapped = wrapForUndeployed(owner.address, await signAsAccount(owner, account, first))
    expect(isErc6492Signature(wrapped)).toBe(true)
    const before = await login(first, wrapped)
    expect(before.statusCode).toBe(200)
    expect(before.json().data.address).toBe(account.toLowerCase())
    expect(getSetCookie(before, 'ql_session')?.value).toBeTruthy()
    // Verifying simulated the deployment; it deployed nothing.
    expect(await chain.client.getCode({ address: account })).toBeUndefined()

    const wallet = createWalletClient({
      account: getDevnetAccount(0),
      chain: chain.client.chain,
      transport: http(chain.rpcUrl),
    })
    const deployed = await wallet.writeContract({
      address: factory(),
      abi: quickLinksAccountFactoryAbi,
      functionName: 'createAccount',
      args: [owner.address, 0n],
    })
    await chain.client.waitForTransactionReceipt({ hash: deployed })
    expect(await chain.client.getCode({ address: account })).not.toBeUndefined()

    const second = await buildMessage(account)
    const after = await login(second, await signAsAccount(owner, account, second))
    expect(after.statusCode).toBe(200)
    expect(after.json().data.address).toBe(account.toLowerCase())
  })

  it('refuses a smart account signature made by another key, wrapped or not, and the owner’s plain EOA signature', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const intruder = privateKeyToAccount(generatePrivateKey())
    const account = await smartAccountOf(owner.address)
    const refusal = {
      error: {
        code: 'UNAUTHORIZED',
        message: 'The signature does not match the address in the sign-in message.',
      },
    }

    const undeployed = await buildMessage(account)
    const byIntruder = await login(
      undeployed,
      wrapForUndeployed(owner.address, await signAsAccount(intruder, account, undeployed)),
    )
    expect(byIntruder.statusCode).toBe(401)
    expect(byIntruder.json()).toEqual(refusal)
    // The intruder's own factory call does not make the owner's account theirs either.
    const ownFactoryCall = await buildMessage(account)
    const intruderFactory = await login(
      ownFactoryCall,
      wrapForUndeployed(intruder.address, await signAsAccount(intruder, account, ownFactoryCall)),
    )
    expect(intruderFactory.statusCode).toBe(401)

    const wallet = createWalletClient({
      account: getDevnetAccount(0),
      chain: chain.client.chain,
      transport: http(chain.rpcUrl),
    })
    await chain.client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: factory(),
        abi: quickLinksAccountFactoryAbi,
        functionName: 'createAccount',
        args: [owner.address, 0n],
      }),
    })
    const deployed = await buildMessage(account)
    const afterDeployment = await login(deployed, await signAsAccount(intruder, account, deployed))
    expect(afterDeployment.json()).toEqual(refusal)
    // The owner's key signing the message itself (not the account's replay-safe digest) is not the account's signature.
    const plain = await buildMessage(account)
    const plainEoa = await login(plain, await owner.signMessage({ message: plain }))
    expect(plainEoa.statusCode).toBe(401)
  })

  it('still signs a plain EOA in without asking the chain', async () => {
    const eoa = privateKeyToAccount(generatePrivateKey())
    const message = await buildMessage(eoa.address)
    const response = await login(message, await eoa.signMessage({ message }))
    expect(response.statusCode).toBe(200)
    expect(response.json().data.address).toBe(eoa.address.toLowerCase())
  })
})
