import type { RouteResult, RoutingToken } from '@quicklinks/core/api/routing'
import { queryOptions } from '@tanstack/react-query'
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hash,
  type Hex,
  parseAbi,
  parseSignature,
} from 'viem'
import type { Config } from 'wagmi'
import {
  getBytecode,
  getCapabilities,
  readContract,
  sendCalls,
  sendTransaction,
  signTypedData,
  waitForCallsStatus,
} from 'wagmi/actions'
import { toWalletTransaction } from './route-builder'

// How a token payment whose allowance is short goes out (docs/product.md#one-confirmation,
// docs/decisions/0029): one ERC-5792 batch when the wallet can run it atomically, else a permit
// signature in place of the approval when the token and the route take one, else the two steps.

/**
 * 'batch': approve and pay as one atomic wallet_sendCalls; 'permit': sign an EIP-2612 permit and
 * send PayRouter's permitAndCall; 'approve': the payer approves first, then pays.
 */
export type TokenPaymentMethod = 'batch' | 'permit' | 'approve'

/** What decides the method: the wallet on the source chain, the token and the route. */
export type TokenPaymentContext = {
  chainId: number
  payer: Address
  token: Pick<RoutingToken, 'address' | 'permit'>
  route: Pick<RouteResult['route'], 'acceptsPermit'>
}

const permitAndCallAbi = parseAbi([
  'function permitAndCall(address token, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s, bytes data) returns (bytes)',
])
const noncesAbi = parseAbi(['function nonces(address owner) view returns (uint256)'])
/** How long a permit stays good: long enough for a slow wallet, short enough to be no standing approval. */
const permitLifetimeSeconds = 30 * 60
/** permitAndCall's own work (the permit's signature check and storage) on top of the route's gas. */
const permitGas = 90_000n
/** EIP-7702: an EOA's code is 0xef0100 and the delegate's address; it still signs with its own key. */
const delegationPrefix = '0xef0100'

/**
 * The method for what was read (pure): `atomic` 'supported' or 'ready' among the wallet's ERC-5792
 * capabilities for the chain means a batch; a permit needs the token's permit domain, a route that
 * accepts it, and a payer that signs with its own key (no code, or an EIP-7702 delegation; null:
 * its code could not be read).
 */
export function chooseTokenPaymentMethod(read: {
  atomicStatus: unknown
  hasPermit: boolean
  acceptsPermit: boolean
  payerCode: Hex | undefined | null
}): TokenPaymentMethod {
  if (read.atomicStatus === 'supported' || read.atomicStatus === 'ready') return 'batch'
  if (!read.hasPermit || !read.acceptsPermit || read.payerCode === null) return 'approve'
  const code = read.payerCode
  return code === undefined || code === '0x' || code.startsWith(delegationPrefix) ? 'permit' : 'approve'
}

/**
 * Reads the wallet's ERC-5792 capabilities for the chain (a wallet that does not answer
 * wallet_getCapabilities has none) and, for a permit token, the payer's code, then chooses
 * (`chooseTokenPaymentMethod`). Never throws.
 */
export async function readTokenPaymentMethod(
  config: Config,
  context: TokenPaymentContext,
): Promise<TokenPaymentMethod> {
  const capabilities = await getCapabilities(config, {
    account: context.payer,
    chainId: context.chainId,
  }).catch(() => undefined)
  const atomicStatus = (capabilities as { atomic?: { status?: unknown } } | undefined)?.atomic?.status
  const hasPermit = context.token.permit !== undefined
  const acceptsPermit = context.route.acceptsPermit === true
  const needsCode = atomicStatus !== 'supported' && atomicStatus !== 'ready' && hasPermit && acceptsPermit
  const payerCode = needsCode
    ? await getBytecode(config, { address: context.payer, chainId: context.chainId }).catch(() => null)
    : undefined
  return chooseTokenPaymentMethod({ atomicStatus, hasPermit, acceptsPermit, payerCode })
}

/** The method as a query: read once per wallet, chain, payer, token and route kind. */
export function tokenPaymentMethodQueryOptions(
  config: Config,
  context: TokenPaymentContext,
  connectorId: string | undefined,
) {
  return queryOptions({
    queryKey: [
      'token-payment-method',
      connectorId,
      context.chainId,
      context.payer,
      context.token.address,
      context.token.permit !== undefined,
      context.route.acceptsPermit === true,
    ],
    queryFn: () => readTokenPaymentMethod(config, context),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
}

export type SendTokenPaymentOptions = {
  chainId: number
  payer: Address
  token: Address
  /** The route's permit domain (the token's), needed for 'permit'. */
  permit?: RoutingToken['permit']
  spender: Address
  amount: bigint
  transactionRequest: RouteResult['route']['transactionRequest']
}

/**
 * Approve and the route's call as one atomic ERC-5792 batch (viem's sendCalls with forceAtomic),
 * then waits for the wallet's calls status; resolves with the hash of the transaction that carried
 * the batch (what the server matches and verifies). Rejects on a refusal or a failed batch.
 */
export async function sendBatchedPayment(config: Config, options: SendTokenPaymentOptions): Promise<Hash> {
  const request = toWalletTransaction(options.transactionRequest)
  const { id } = await sendCalls(config, {
    chainId: options.chainId,
    account: options.payer,
    forceAtomic: true,
    calls: [
      {
        to: options.token,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [options.spender, options.amount],
        }),
      },
      { to: request.to, data: request.data, value: request.value },
    ],
  })
  const status = await waitForCallsStatus(config, { id, timeout: 120_000 })
  const hash = status.receipts?.at(-1)?.transactionHash
  if (status.status !== 'success' || hash === undefined) {
    throw new Error('The wallet did not complete the payment: its batch failed.')
  }
  return hash
}

/**
 * Signs an EIP-2612 permit of exactly the amount for the spender (eth_signTypedData_v4), then
 * sends the route's call wrapped in PayRouter's permitAndCall: one transaction, no approval.
 * Resolves with its hash once the wallet has sent it.
 */
export async function sendPermitPayment(config: Config, options: SendTokenPaymentOptions): Promise<Hash> {
  if (options.permit === undefined) throw new Error('This token takes no permit.')
  const nonce = await readContract(config, {
    chainId: options.chainId,
    address: options.token,
    abi: noncesAbi,
    functionName: 'nonces',
    args: [options.payer],
  })
  const deadline = BigInt(Math.floor(Date.now() / 1000) + permitLifetimeSeconds)
  const signature = await signTypedData(config, {
    account: options.payer,
    domain: {
      name: options.permit.name,
      version: options.permit.version,
      chainId: options.chainId,
      verifyingContract: options.token,
    },
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: { owner: options.payer, spender: options.spender, value: options.amount, nonce, deadline },
  })
  const { v, r, s, yParity } = parseSignature(signature)
  const request = toWalletTransaction(options.transactionRequest)
  return sendTransaction(config, {
    chainId: options.chainId,
    to: request.to,
    value: 0n,
    data: encodeFunctionData({
      abi: permitAndCallAbi,
      functionName: 'permitAndCall',
      args: [
        options.token,
        options.amount,
        deadline,
        Number(v ?? BigInt(27 + yParity)),
        r,
        s,
        request.data as Hex,
      ],
    }),
    ...(request.gas === undefined ? {} : { gas: request.gas + permitGas }),
  })
}
