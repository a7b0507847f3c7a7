// The whole Squid v2 stand-in in one file (its four endpoints share the devnet catalogue, the quotes
// and the status table tests set); longer than 300 lines for that reason.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { encodeAbiParameters, getAddress, isAddress } from 'viem'
import { devnetChains } from './devnet-chains.ts'
import type { DevnetDeployment } from './devnet-deployment.ts'

/**
 * A loopback stand-in for Squid's v2 API (nothing here can reach Squid): GET /v2/chains,
 * GET /v2/tokens, POST /v2/route and GET /v2/status in the documented response shapes (the same
 * shapes as apps/server/test/fixtures/squid). Given the devnet's deployment, it lists the devnet's
 * chains (their anvil RPC URLs) and tokens, so a browser wallet on the anvils can pay its routes.
 * Routes are quoted from USD prices; statuses are whatever the test sets.
 */

/** Squid's placeholder address for a chain's native token. */
export const squidNativeTokenAddress = nativeTokenAddress

/**
 * Squid's router (SquidRouter on every EVM chain, from Squid's chain list). On the devnet it has
 * no code: a route's transaction is then a plain call that succeeds and keeps the value sent.
 */
export const squidRouterAddress = '0xce16F69375520ab01377ce7B88f5BA8C48F8D666'

/** One entry of GET /v2/chains `chains` (the fields Squid documents and our server reads). */
export type SquidStandInChain = {
  chainId: string
  chainType: string
  networkIdentifier: string
  axelarChainName: string
  networkName: string
  rpc: string
  chainIconURI: string
  blockExplorerUrls: string[]
  nativeCurrency: { name: string; symbol: string; decimals: number; icon: string }
  squidContracts: { squidRouter: string; squidMulticall: string }
  sameChainSwapsSupported: boolean
  /** Seconds a bridge from this chain takes. */
  estimatedRouteDuration: number
  [field: string]: unknown
}

/** One entry of GET /v2/tokens `tokens`. */
export type SquidStandInToken = {
  type: string
  chainId: string
  address: string
  name: string
  symbol: string
  decimals: number
  logoURI: string
  coingeckoId?: string
  /** USD for one whole token; a token without it cannot be quoted. */
  usdPrice?: number
  [field: string]: unknown
}

/** One request the stand-in received, in arrival order. */
export type SquidStandInRequest = {
  method: string
  /** The path without the query, e.g. `/v2/status`. */
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  /** The JSON body, undefined when empty or not JSON. */
  body: Record<string, unknown> | undefined
}

/**
 * An answer with its HTTP status spelled out, for what a plain body cannot say (an error, a 500, a
 * header). A plain object anywhere a reply is expected is answered 200 as it is.
 */
export type SquidReply = { httpStatus: number; body: unknown; headers?: Record<string, string> }

/** GET /v2/status's query, as our server (and Squid's SDK) send it. */
export type SquidStatusQuery = {
  transactionId: string
  fromChainId: string | null
  toChainId: string | null
  requestId: string | null
  quoteId: string | null
  /** Every parameter, for anything else a test wants to read. */
  params: URLSearchParams
}

/**
 * What GET /v2/status answers for one query: a status body (answered 200; `id` and
 * `fromChain.transactionId` are filled with the queried transactionId when the body leaves them
 * out), null for Squid's 404 of a transaction it has not seen, or a `SquidReply`.
 */
export type SquidStatusAnswer = Record<string, unknown> | SquidReply | null

export type SquidStatusHandler = (query: SquidStatusQuery) => SquidStatusAnswer | Promise<SquidStatusAnswer>

/** POST /v2/route's body (Squid's route request; numbers may come as strings or numbers). */
export type SquidRouteRequest = {
  fromChain: string
  toChain: string
  fromToken: string
  toToken: string
  fromAmount: string
  fromAddress: string | undefined
  toAddress: string
  /** Percent (1 = 1 %). */
  slippage: number
  /** The body as sent. */
  raw: Record<string, unknown>
}

/**
 * Answers one route request. `quote` is the stand-in's own answer (a documented-shape route, or
 * Squid's 400 when it cannot quote), to return as is or changed.
 */
export type SquidRouteHandler = (
  request: SquidRouteRequest,
  quote: SquidReply,
) => Record<string, unknown> | SquidReply | Promise<Record<string, unknown> | SquidReply>

export type SquidStandInOptions = {
  /** The devnet: its chains (anvil RPC URLs) and tokens become Squid's catalogue. */
  deployment?: DevnetDeployment
  /** Replaces the catalogue's chains (default: the deployment's, else Base and Avalanche mainnet). */
  chains?: SquidStandInChain[]
  /** Replaces the catalogue's tokens (default: the deployment's, else Base and Avalanche mainnet). */
  tokens?: SquidStandInToken[]
  /** Default 127.0.0.1. */
  host?: string
  /** Default 0: a free port. */
  port?: number
  /** When set, a request without this x-integrator-id header is answered 401, as Squid does. */
  integratorId?: string
}

export type SquidStandIn = {
  /** The API base to give the server as SQUID_API_URL, e.g. http://127.0.0.1:41234. */
  url: string
  /** Every request received, oldest first. */
  requests: SquidStandInRequest[]
  chains: SquidStandInChain[]
  tokens: SquidStandInToken[]
  /** What GET /v2/status answers from now on: one answer for every query, or a function of the query. */
  setStatus(answer: SquidStatusAnswer | SquidStatusHandler): void
  /** How POST /v2/route answers from now on; without a handler, the stand-in's own quote again. */
  setRoute(handler?: SquidRouteHandler): void
  /** Closes the server (open connections included). */
  stop(): Promise<void>
}

/** The network identifiers Squid gives the devnet's chains. */
const networkIdentifiers: Readonly<Record<number, string>> = {
  8453: 'base',
  43114: 'avalanche',
  42161: 'arbitrum',
}

const nativeNames: Readonly<Record<string, string>> = { ETH: 'Ethereum', AVAX: 'Avalanche' }
const tokenNames: Readonly<Record<string, string>> = {
  USDC: 'USD Coin',
  USDT: 'Tether USD',
  WETH: 'Wrapped Ether',
  WAVAX: 'Wrapped AVAX',
}
const stablecoins = new Set(['USDC', 'USDT'])
/** Squid's multicall on EVM chains, from its chain list. */
const squidMulticallAddress = '0xaD6Cea45f98444a922a2b4fE96b8C90F0862D2F4'
/** Seconds: Squid's estimate for a same-chain swap, and for a bridge when the chain names none. */
const swapSeconds = 20
const bridgeSeconds = 90

/**
 * Starts the stand-in on loopback. Resolves once it listens; rejects when the port cannot be bound.
 * Everything it answers follows Squid v2's documented shapes; see the file comment.
 */
export async function startSquidStandIn(options: SquidStandInOptions = {}): Promise<SquidStandIn> {
  const chains =
    options.chains ?? (options.deployment ? listDevnetChains(options.deployment) : mainnetChains())
  const tokens =
    options.tokens ?? (options.deployment ? listDevnetTokens(options.deployment) : mainnetTokens())
  const requests: SquidStandInRequest[] = []
  let statusHandler: SquidStatusHandler = () => null
  let routeHandler: SquidRouteHandler = (_request, quote) => quote
  let routeCount = 0

  const answerStatus = async (params: URLSearchParams): Promise<SquidReply> => {
    const transactionId = params.get('transactionId') ?? ''
    if (transactionId === '') return squidError(400, 'transactionId is required', 'SCHEMA_VALIDATION_ERROR')
    const answer = await statusHandler({
      transactionId,
      fromChainId: params.get('fromChainId'),
      toChainId: params.get('toChainId'),
      requestId: params.get('requestId'),
      quoteId: params.get('quoteId'),
      params,
    })
    if (answer === null) {
      return {
        httpStatus: 404,
        body: { message: 'Transaction not found', statusCode: '404', type: 'NOT_FOUND', id: transactionId },
      }
    }
    if (isReply(answer)) return answer
    return { httpStatus: 200, body: withTransactionId(answer, transactionId) }
  }

  const answerRoute = async (body: Record<string, unknown> | undefined): Promise<SquidReply> => {
    const request = readRouteRequest(body ?? {})
    if (typeof request === 'string') return squidError(400, request, 'SCHEMA_VALIDATION_ERROR')
    routeCount += 1
    const quote = quoteRoute(request, chains, tokens)
    const answer = await routeHandler(request, quote)
    const reply = isReply(answer) ? answer : { httpStatus: 200, body: answer }
    // Squid names every route call; the server keeps it for status calls.
    return { ...reply, headers: { 'x-request-id': `squid-stand-in-${routeCount}`, ...reply.headers } }
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in')
      const recorded: SquidStandInRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: parseBody(Buffer.concat(chunks).toString('utf8')),
      }
      requests.push(recorded)
      const send = (reply: SquidReply) => {
        response.writeHead(reply.httpStatus, { 'content-type': 'application/json', ...reply.headers })
        response.end(JSON.stringify(reply.body))
      }
      answer(recorded).then(send, (error: unknown) =>
        send(squidError(500, error instanceof Error ? error.message : String(error), 'INTERNAL_ERROR')),
      )
    })
  })

  const answer = async (request: SquidStandInRequest): Promise<SquidReply> => {
    if (options.integratorId !== undefined && request.headers['x-integrator-id'] !== options.integratorId) {
      return squidError(401, 'Invalid integrator ID', 'UNAUTHORIZED')
    }
    const route = `${request.method} ${request.path}`
    if (route === 'GET /v2/chains') return { httpStatus: 200, body: { chains } }
    if (route === 'GET /v2/tokens') return { httpStatus: 200, body: { tokens } }
    if (route === 'POST /v2/route') return answerRoute(request.body)
    if (route === 'GET /v2/status') return answerStatus(request.query)
    return squidError(404, `Cannot ${route}`, 'NOT_FOUND')
  }

  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    requests,
    chains,
    tokens,
    setStatus(next) {
      statusHandler = typeof next === 'function' ? next : () => next
    },
    setRoute(handler) {
      routeHandler = handler ?? ((_request, quote) => quote)
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error === undefined ? resolve() : reject(error)))
      }),
  }
}

function isReply(value: unknown): value is SquidReply {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { httpStatus?: unknown }).httpStatus === 'number'
  )
}

/** Squid's error body (the route-error fixture): message, statusCode as a string, type. */
function squidError(httpStatus: number, message: string, type: string): SquidReply {
  return { httpStatus, body: { message, statusCode: String(httpStatus), type } }
}

function parseBody(text: string): Record<string, unknown> | undefined {
  if (text.length === 0) return undefined
  try {
    const json: unknown = JSON.parse(text)
    return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

function withTransactionId(body: Record<string, unknown>, transactionId: string): Record<string, unknown> {
  const fromChain =
    typeof body.fromChain === 'object' && body.fromChain !== null
      ? (body.fromChain as Record<string, unknown>)
      : {}
  return {
    id: transactionId,
    ...body,
    fromChain: { ...fromChain, transactionId: fromChain.transactionId ?? transactionId },
  }
}

function readRouteRequest(body: Record<string, unknown>): SquidRouteRequest | string {
  const text = (key: string): string | undefined => {
    const value = body[key]
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
  }
  for (const key of ['fromChain', 'toChain', 'fromToken', 'toToken', 'fromAmount', 'toAddress']) {
    if (text(key) === undefined) return `${key} is required`
  }
  const fromAmount = text('fromAmount') as string
  if (!/^\d+$/.test(fromAmount) || BigInt(fromAmount) === 0n) return 'fromAmount must be a positive integer'
  const slippage = Number(body.slippage ?? 1)
  return {
    fromChain: text('fromChain') as string,
    toChain: text('toChain') as string,
    fromToken: text('fromToken') as string,
    toToken: text('toToken') as string,
    fromAmount,
    fromAddress: text('fromAddress'),
    toAddress: text('toAddress') as string,
    slippage: Number.isFinite(slippage) && slippage >= 0 && slippage < 100 ? slippage : 1,
    raw: body,
  }
}

function findToken(tokens: readonly SquidStandInToken[], chainId: string, address: string) {
  const wanted = address.toLowerCase()
  const isNative = wanted === squidNativeTokenAddress.toLowerCase() || /^0x0{40}$/.test(wanted)
  return tokens.find(
    (token) =>
      token.chainId === chainId &&
      (isNative
        ? token.address.toLowerCase() === squidNativeTokenAddress.toLowerCase()
        : token.address.toLowerCase() === wanted),
  )
}

// Prices carry 8 decimals in integer arithmetic, so amounts of any size quote exactly.
const priceScale = 100_000_000
const toScaledPrice = (usdPrice: number): bigint => BigInt(Math.round(usdPrice * priceScale))

function formatUsd(amount: bigint, decimals: number, usdPrice: number): string {
  const cents = (amount * toScaledPrice(usdPrice) * 100n) / (10n ** BigInt(decimals) * BigInt(priceScale))
  return (Number(cents) / 100).toFixed(2)
}

function toActionToken(token: SquidStandInToken) {
  return {
    type: token.type,
    chainId: token.chainId,
    address: token.address,
    name: token.name,
    symbol: token.symbol,
    decimals: token.decimals,
    logoURI: token.logoURI,
  }
}

/**
 * The stand-in's own route: toAmount at the two tokens' USD prices (no fee), toAmountMin less the
 * slippage; one swap on one chain, one bridge across chains; the transaction calls Squid's router
 * with the native amount as value. Squid's 400 when a token is unknown or has no price.
 */
function quoteRoute(
  request: SquidRouteRequest,
  chains: readonly SquidStandInChain[],
  tokens: readonly SquidStandInToken[],
): SquidReply {
  const noRoute = squidError(400, 'Unable to find a route for the given parameters', 'SQUID_ROUTE_ERROR')
  const fromToken = findToken(tokens, request.fromChain, request.fromToken)
  const toToken = findToken(tokens, request.toChain, request.toToken)
  const fromChain = chains.find((chain) => chain.chainId === request.fromChain)
  if (!fromToken || !toToken || !fromChain || !chains.some((chain) => chain.chainId === request.toChain)) {
    return noRoute
  }
  if (!fromToken.usdPrice || !toToken.usdPrice || !isAddress(request.toAddress, { strict: false }))
    return noRoute

  const fromAmount = BigInt(request.fromAmount)
  const toAmount =
    (fromAmount * toScaledPrice(fromToken.usdPrice) * 10n ** BigInt(toToken.decimals)) /
    (toScaledPrice(toToken.usdPrice) * 10n ** BigInt(fromToken.decimals))
  if (toAmount === 0n) return noRoute
  const toAmountMin = (toAmount * BigInt(Math.round((100 - request.slippage) * 100))) / 10_000n
  const isCrossChain = request.fromChain !== request.toChain
  const duration = isCrossChain ? fromChain.estimatedRouteDuration || bridgeSeconds : swapSeconds
  const action = {
    type: isCrossChain ? 'bridge' : 'swap',
    chainType: 'evm',
    fromChain: request.fromChain,
    toChain: request.toChain,
    fromToken: toActionToken(fromToken),
    toToken: toActionToken(toToken),
    fromAmount: request.fromAmount,
    toAmount: toAmount.toString(),
    toAmountMin: toAmountMin.toString(),
    exchangeRate: (fromToken.usdPrice / toToken.usdPrice).toString(),
    priceImpact: '0.00',
    stage: 0,
    provider: isCrossChain ? 'Axelar' : 'Uniswap V2',
    logoURI: '',
    description: isCrossChain
      ? `Bridge ${fromToken.symbol} to ${toToken.symbol}`
      : `Swap ${fromToken.symbol} to ${toToken.symbol}`,
    estimatedDuration: duration,
  }
  const isNative = fromToken.address.toLowerCase() === squidNativeTokenAddress.toLowerCase()
  const quoteId = randomBytes(16).toString('hex')
  return {
    httpStatus: 200,
    body: {
      route: {
        estimate: {
          actions: [action],
          fromAmount: request.fromAmount,
          toAmount: toAmount.toString(),
          toAmountMin: toAmountMin.toString(),
          exchangeRate: action.exchangeRate,
          aggregatePriceImpact: '0.00',
          fromAmountUSD: formatUsd(fromAmount, fromToken.decimals, fromToken.usdPrice),
          toAmountUSD: formatUsd(toAmount, toToken.decimals, toToken.usdPrice),
          toAmountMinUSD: formatUsd(toAmountMin, toToken.decimals, toToken.usdPrice),
          aggregateSlippage: request.slippage,
          fromToken: toActionToken(fromToken),
          toToken: toActionToken(toToken),
          isBoostSupported: false,
          feeCosts: [],
          gasCosts: [],
          estimatedRouteDuration: duration,
        },
        transactionRequest: {
          routeType: isCrossChain ? 'CALL_BRIDGE' : 'SWAP',
          target: fromChain.squidContracts.squidRouter,
          // callBridgeCall's selector and a stand-in payload naming what the call would do.
          data: `0x846a1bc6${encodeAbiParameters(
            [{ type: 'address' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'address' }],
            [
              getAddress(isNative ? squidNativeTokenAddress : fromToken.address),
              fromAmount,
              BigInt(request.toChain),
              getAddress(request.toAddress),
            ],
          ).slice(2)}`,
          value: isNative ? request.fromAmount : '0',
          gasLimit: '446000',
          gasPrice: '1500000000',
          maxFeePerGas: '1500000000',
          maxPriorityFeePerGas: '1500000000',
        },
        params: { ...request.raw },
        quoteId,
      },
    },
  }
}

function listDevnetChains(deployment: DevnetDeployment): SquidStandInChain[] {
  return deployment.chains.map((chain) => ({
    chainId: String(chain.chainId),
    chainType: 'evm',
    networkIdentifier: networkIdentifiers[chain.chainId] ?? chain.name.toLowerCase().replace(/\s+/g, '-'),
    axelarChainName: chain.name,
    networkName: chain.name,
    rpc: chain.rpcUrl,
    // Nothing may be fetched from another origin on the devnet: no icons.
    chainIconURI: '',
    blockExplorerUrls: [],
    nativeCurrency: {
      name: nativeNames[chain.nativeSymbol] ?? chain.nativeSymbol,
      symbol: chain.nativeSymbol,
      decimals: 18,
      icon: '',
    },
    squidContracts: { squidRouter: squidRouterAddress, squidMulticall: squidMulticallAddress },
    sameChainSwapsSupported: true,
    estimatedRouteDuration: bridgeSeconds,
  }))
}

/** The native token's USD price on a devnet chain: its seeded pool price (see devnet-chains.ts). */
function getDevnetNativePrice(chainId: number, nativeSymbol: string): number {
  const configured = devnetChains.find((chain) => chain.chainId === chainId)?.nativeUsdcPrice
  return configured ?? (nativeSymbol === 'AVAX' ? 30 : 3000)
}

function listDevnetTokens(deployment: DevnetDeployment): SquidStandInToken[] {
  return deployment.chains.flatMap((chain) => {
    const nativePrice = getDevnetNativePrice(chain.chainId, chain.nativeSymbol)
    const native: SquidStandInToken = {
      type: 'evm',
      chainId: String(chain.chainId),
      address: squidNativeTokenAddress,
      name: nativeNames[chain.nativeSymbol] ?? chain.nativeSymbol,
      symbol: chain.nativeSymbol,
      decimals: 18,
      logoURI: '',
      usdPrice: nativePrice,
    }
    return [
      native,
      ...chain.tokens.map(
        (token): SquidStandInToken => ({
          type: 'evm',
          chainId: String(chain.chainId),
          address: token.address,
          name: tokenNames[token.symbol] ?? token.symbol,
          symbol: token.symbol,
          decimals: token.decimals,
          logoURI: '',
          // The wrapped native token trades at the native price; the stablecoins at a dollar.
          usdPrice: stablecoins.has(token.symbol) ? 1 : nativePrice,
        }),
      ),
    ]
  })
}

/** Without a devnet: Base and Avalanche as Squid's documentation lists them (RPCs unreachable here). */
function mainnetChains(): SquidStandInChain[] {
  const chain = (
    chainId: number,
    networkIdentifier: string,
    networkName: string,
    rpc: string,
    explorer: string,
    native: { name: string; symbol: string },
  ): SquidStandInChain => ({
    chainId: String(chainId),
    chainType: 'evm',
    networkIdentifier,
    axelarChainName: networkName,
    networkName,
    rpc,
    chainIconURI: '',
    blockExplorerUrls: [explorer],
    nativeCurrency: { ...native, decimals: 18, icon: '' },
    squidContracts: { squidRouter: squidRouterAddress, squidMulticall: squidMulticallAddress },
    sameChainSwapsSupported: true,
    estimatedRouteDuration: bridgeSeconds,
  })
  return [
    chain(8453, 'base', 'Base', 'https://mainnet.base.org', 'https://basescan.org/', {
      name: 'Ethereum',
      symbol: 'ETH',
    }),
    chain(43114, 'avalanche', 'Avalanche', 'https://api.avax.network/ext/bc/C/rpc', 'https://snowtrace.io/', {
      name: 'Avalanche',
      symbol: 'AVAX',
    }),
  ]
}

function mainnetTokens(): SquidStandInToken[] {
  const token = (
    chainId: number,
    address: string,
    symbol: string,
    name: string,
    decimals: number,
    usdPrice: number,
  ): SquidStandInToken => ({
    type: 'evm',
    chainId: String(chainId),
    address,
    name,
    symbol,
    decimals,
    logoURI: '',
    usdPrice,
  })
  return [
    token(8453, squidNativeTokenAddress, 'ETH', 'Ethereum', 18, 3000),
    token(8453, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'USDC', 'USD Coin', 6, 1),
    token(43114, squidNativeTokenAddress, 'AVAX', 'Avalanche', 18, 30),
    token(43114, '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', 'USDC', 'USD Coin', 6, 1),
  ]
}
