import {
  type Chain,
  type Client,
  concatHex,
  createClient,
  defineChain,
  type Hex,
  type SignedAuthorization,
  type Transport,
} from 'viem'
import {
  type BundlerClient,
  createBundlerClient,
  createPaymasterClient,
  entryPoint08Abi,
  type GetPaymasterDataParameters,
  type GetPaymasterStubDataParameters,
  type SmartAccount,
  toSimple7702SmartAccount,
  type UserOperation,
} from 'viem/account-abstraction'
import { getCode, getTransactionCount } from 'viem/actions'
import { createWalletError, findSponsorshipRefusal } from '../wallet-error.ts'
import { estimateUserOperationFees } from './estimate-user-operation-fees.ts'
import type {
  SmartAccountChainConfig,
  SmartAccountType,
  SmartSendInput,
  SmartSendResult,
  SmartWallet,
  SmartWalletOptions,
} from './smart-wallet-types.ts'
import {
  toQuickLinksMultiOwnerSmartAccount,
  toQuickLinksSmartAccount,
} from './to-quick-links-smart-account.ts'

/** The account type used when a call names none. */
export const defaultSmartAccountType: SmartAccountType = 'LightAccount'

/** How long `send` waits for the bundler to include an operation. */
const receiptTimeoutMs = 120_000
const receiptPollingIntervalMs = 1_000

/** The types deployed as QuickLinksMultiOwnerAccount; the other two are QuickLinksAccount. */
const multiOwnerTypes: ReadonlySet<SmartAccountType> = new Set([
  'MultiOwnerModularAccount',
  'MultiOwnerLightAccount',
])

type ChainContext = {
  config: SmartAccountChainConfig
  client: Client<Transport, Chain, undefined>
  bundler: Transport
  paymaster: Transport | undefined
}

/**
 * The embedded wallet's smart accounts on every configured chain (see {@link SmartWallet}). The
 * owner signs everything; nothing is sent until `send`. Accounts are built lazily per chain and
 * type and kept (their address is read once from the factory).
 *
 * `send` fails with a SponsorshipRefusedError when the sponsor service refuses (nothing was sent;
 * the same calls without `policyId` are paid by the account), with a wallet error when the chain is
 * not configured or a policy is asked for where no paymaster is, and otherwise with viem's
 * error (the bundler's refusal, a timeout) as is.
 */
export function createSmartWallet(options: SmartWalletOptions): SmartWallet {
  const { owner } = options
  const multiOwnerOwners = options.owners ?? [owner.address]
  const contexts = new Map<number, ChainContext>()
  const accounts = new Map<string, Promise<SmartAccount>>()

  const getContext = (chainId: number): ChainContext => {
    const cached = contexts.get(chainId)
    if (cached) return cached
    const config = options.chains.find((chain) => chain.chainId === chainId)
    if (!config) throw createWalletError(`Smart accounts are not available on chain ${chainId}.`)
    const transports = options.transports(chainId)
    const context: ChainContext = {
      config,
      client: createClient({ chain: buildChain(chainId), transport: transports.rpc }),
      bundler: transports.bundler,
      paymaster: transports.paymaster,
    }
    contexts.set(chainId, context)
    return context
  }

  const getAccount = (chainId: number, accountType: SmartAccountType): Promise<SmartAccount> => {
    const key = `${chainId}:${accountType}`
    const cached = accounts.get(key)
    if (cached) return cached
    const { client, config } = getContext(chainId)
    const account: Promise<SmartAccount> = multiOwnerTypes.has(accountType)
      ? toQuickLinksMultiOwnerSmartAccount({
          client,
          owner,
          owners: multiOwnerOwners,
          threshold: options.threshold ?? 1,
          entryPoint: config.entryPoint,
          factory: config.multiOwnerAccountFactory,
        })
      : toQuickLinksSmartAccount({
          client,
          owner,
          entryPoint: config.entryPoint,
          factory: config.accountFactory,
        })
    options.onAccountState?.(chainId, accountType, { status: 'CONNECTING', account: null })
    account.then(
      (built) =>
        options.onAccountState?.(chainId, accountType, { status: 'CONNECTED', account: built.address }),
      () => {
        // A failed read (chain down) is not kept: the next call tries again.
        accounts.delete(key)
        options.onAccountState?.(chainId, accountType, { status: 'ERROR', account: null })
      },
    )
    accounts.set(key, account)
    return account
  }

  const get7702Account = (chainId: number): Promise<SmartAccount> => {
    const key = `${chainId}:EIP7702`
    const cached = accounts.get(key)
    if (cached) return cached
    const { client, config } = getContext(chainId)
    const account: Promise<SmartAccount> = toSimple7702SmartAccount({
      client,
      // viem types the owner as a private-key account but only calls LocalAccount methods
      // (signMessage, signTypedData, signAuthorization through `authorization`).
      owner: owner as Parameters<typeof toSimple7702SmartAccount>[0]['owner'],
      entryPoint: { abi: entryPoint08Abi, address: config.entryPoint, version: '0.8' },
      implementation: config.simple7702Account,
    })
    account.catch(() => accounts.delete(key))
    accounts.set(key, account)
    return account
  }

  /** The owner's signed delegation to Simple7702Account, or undefined when it is delegated already. */
  const getAuthorization = async (context: ChainContext): Promise<SignedAuthorization | undefined> => {
    const implementation = context.config.simple7702Account
    const code = await getCode(context.client, { address: owner.address })
    if (code?.toLowerCase() === concatHex(['0xef0100', implementation]).toLowerCase()) return undefined
    if (!owner.signAuthorization)
      throw createWalletError('This wallet cannot sign an EIP-7702 authorization.')
    // The bundler's transaction carries it, so the EOA's own nonce is not bumped first: use it as is.
    const nonce = await getTransactionCount(context.client, { address: owner.address, blockTag: 'pending' })
    return owner.signAuthorization({
      chainId: context.config.chainId,
      contractAddress: implementation,
      nonce,
    })
  }

  const send = async (input: SmartSendInput): Promise<SmartSendResult> => {
    const { chainId, calls, policyId, onProgress } = input
    const accountType = input.accountType ?? defaultSmartAccountType
    const context = getContext(chainId)
    const sponsored = policyId !== undefined
    if (sponsored && context.paymaster === undefined) {
      throw createWalletError(`Gas sponsorship is not available on chain ${chainId}.`)
    }
    onProgress?.({ step: 'preparing' })
    const account =
      accountType === 'EIP7702' ? await get7702Account(chainId) : await getAccount(chainId, accountType)
    const authorization = accountType === 'EIP7702' ? await getAuthorization(context) : undefined

    const bundlerClient = createBundlerClient({
      client: context.client,
      chain: context.client.chain,
      transport: context.bundler,
      // Receipts are polled; viem's default (4 s) would make every send feel slow.
      pollingInterval: receiptPollingIntervalMs,
      userOperation: { estimateFeesPerGas: () => estimateUserOperationFees(context.client) },
      ...(sponsored && context.paymaster !== undefined
        ? {
            paymaster: withSponsoringProgress(createPaymasterClient({ transport: context.paymaster }), () =>
              onProgress?.({ step: 'sponsoring' }),
            ),
            paymasterContext: { policyId },
          }
        : {}),
    })

    let userOpHash: Hex
    try {
      const prepared = await bundlerClient.prepareUserOperation({
        account,
        calls: calls.map((call) => ({ to: call.to, value: call.value ?? 0n, data: call.data ?? '0x' })),
        ...(authorization === undefined ? {} : { authorization }),
      })
      onProgress?.({ step: 'signing' })
      const userOperation = prepared as UserOperation
      const signature = await account.signUserOperation(userOperation)
      userOpHash = await sendPrepared(bundlerClient as BundlerClient, account, {
        ...userOperation,
        signature,
      })
    } catch (error) {
      throw findSponsorshipRefusal(error) ?? error
    }
    onProgress?.({ step: 'submitted', userOpHash })
    const receipt = await bundlerClient.waitForUserOperationReceipt({
      hash: userOpHash,
      timeout: receiptTimeoutMs,
    })
    const transactionHash = receipt.receipt.transactionHash
    onProgress?.({ step: 'included', userOpHash, transactionHash })
    return {
      userOpHash,
      transactionHash,
      success: receipt.success,
      actualGasCost: receipt.actualGasCost,
      sponsored,
    }
  }

  return {
    async getAddress(accountType = defaultSmartAccountType) {
      const [first] = options.chains
      if (!first) throw createWalletError('No chain is configured for smart accounts.')
      return (await getAccount(first.chainId, accountType)).address
    },
    async isDeployed(chainId, accountType = defaultSmartAccountType) {
      return (await getAccount(chainId, accountType)).isDeployed()
    },
    send,
    async signMessage({ chainId, message, accountType = defaultSmartAccountType }) {
      return (await getAccount(chainId, accountType)).signMessage({ message })
    },
    async signTypedData({ chainId, typedData, accountType = defaultSmartAccountType }) {
      return (await getAccount(chainId, accountType)).signTypedData(typedData)
    },
  }
}

/**
 * Sends an operation that is already prepared and signed. Without `account` viem sends it as
 * given (with one, it would prepare it a second time, asking the paymaster again).
 */
async function sendPrepared(
  bundlerClient: BundlerClient,
  account: SmartAccount,
  userOperation: UserOperation,
): Promise<Hex> {
  const parameters = { ...userOperation, entryPointAddress: account.entryPoint.address }
  return bundlerClient.sendUserOperation(parameters as Parameters<BundlerClient['sendUserOperation']>[0])
}

/** The paymaster client's two calls, reporting progress once before the first. */
function withSponsoringProgress(
  paymasterClient: ReturnType<typeof createPaymasterClient>,
  report: () => void,
) {
  let reported = false
  const reportOnce = () => {
    if (reported) return
    reported = true
    report()
  }
  return {
    getPaymasterStubData: (parameters: GetPaymasterStubDataParameters) => {
      reportOnce()
      return paymasterClient.getPaymasterStubData(parameters)
    },
    getPaymasterData: (parameters: GetPaymasterDataParameters) => {
      reportOnce()
      return paymasterClient.getPaymasterData(parameters)
    },
  }
}

function buildChain(chainId: number): Chain {
  return defineChain({
    id: chainId,
    name: `Chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [] } },
  })
}
