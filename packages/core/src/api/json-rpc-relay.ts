import { z } from 'zod'

/**
 * POST /api/{provider}/rpc/{chainId} (docs/api.md#rpc-relay): the signed-in user's embedded wallet
 * reads a catalogue chain and sends its signed transactions through the app server, because the
 * page may only connect to its own origin (CSP connect-src 'self').
 */

/** The path: the configured routing provider and one of its chains. */
export const rpcRelayParamsSchema = z.object({
  provider: z.string().max(64).describe("The configured routing provider ('local' by default)"),
  chainId: z.coerce.number().int().positive().describe('A chain of the routing catalogue'),
})

/**
 * The JSON-RPC methods the relay forwards: what a wallet needs to read a chain, prepare and send a
 * transaction it signed itself, and follow it. Nothing that signs on the node, changes node state
 * (anvil_*, evm_*) or subscribes.
 */
export const relayedJsonRpcMethods = [
  'eth_blockNumber',
  'eth_call',
  'eth_chainId',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByNumber',
  'eth_getCode',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'eth_sendRawTransaction',
] as const

/** One JSON-RPC 2.0 request (no batches). */
export const rpcRelayRequestSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.number(), z.string()]),
    method: z.string().max(64),
    params: z.array(z.unknown()).max(8).optional(),
  })
  .meta({ id: 'RpcRelayRequest' })

/** The node's JSON-RPC answer, passed on as it came (a result or a JSON-RPC error). */
export const rpcRelayResponseSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.number(), z.string(), z.null()]),
    result: z.unknown().optional(),
    error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .meta({ id: 'RpcRelayResponse' })

/** A JSON-RPC request to relay. */
export type RpcRelayRequest = z.infer<typeof rpcRelayRequestSchema>
/** The node's answer. */
export type RpcRelayResponse = z.infer<typeof rpcRelayResponseSchema>
