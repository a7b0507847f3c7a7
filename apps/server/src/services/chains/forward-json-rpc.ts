import type { RpcRelayRequest, RpcRelayResponse } from '@quicklinks/core/api/json-rpc-relay'
import { AppError } from '@quicklinks/core/app-error'

/**
 * Sends one JSON-RPC request as it came (id, method, params) to `url` and returns the answer as
 * it came: the forwarding half of the server's relays (the RPC relay and the bundler relay), which
 * decide beforehand what may pass. Rejects with AppError 503 (`unavailableMessage` for the caller,
 * `upstream` naming the far end in the log message) when the far end does not answer within
 * `timeoutMs` or answers without a JSON-RPC body.
 */
export async function forwardJsonRpc(input: {
  url: string
  request: RpcRelayRequest
  timeoutMs: number
  /** e.g. 'RPC relay: the node'; the log message goes on 'did not answer eth_call'. */
  upstream: string
  unavailableMessage: string
  fetch?: typeof fetch
}): Promise<RpcRelayResponse> {
  const { request } = input
  const send = input.fetch ?? fetch
  let answer: Response
  try {
    answer = await send(input.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: request.id,
        method: request.method,
        params: request.params ?? [],
      }),
      signal: AbortSignal.timeout(input.timeoutMs),
    })
  } catch (cause) {
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: `${input.upstream} did not answer ${request.method}`,
      userMessage: input.unavailableMessage,
      cause,
    })
  }
  const body = (await answer.json().catch(() => null)) as RpcRelayResponse | null
  if (body === null || typeof body !== 'object' || body.jsonrpc !== '2.0') {
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: `${input.upstream} answered ${answer.status} without JSON-RPC`,
      userMessage: input.unavailableMessage,
    })
  }
  return body
}
