import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { RpcRelayRequest, RpcRelayResponse } from '@quicklinks/core/api/json-rpc-relay'
import { AppError } from '@quicklinks/core/app-error'
import { afterEach, describe, expect, it } from 'vitest'
import { forwardJsonRpc } from './forward-json-rpc.ts'

/**
 * The forwarding half of the RPC relay, the bundler relay and the Solana relay, against real local
 * HTTP servers: what the far end receives and what the caller gets when the far end answers, is
 * silent, is down or answers something that is not JSON-RPC.
 */

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void

const servers: Server[] = []

async function listen(handler: Handler): Promise<string> {
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => {
      body += chunk
    })
    request.on('end', () => handler(request, body, response))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc/secret-api-key`
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})

const upstream = 'Bundler relay: the bundler of chain 8453'
const unavailableMessage = 'The bundler did not answer. Try again shortly.'

/** forwardJsonRpc as the bundler relay calls it, to `url`. */
function forward(url: string, request: RpcRelayRequest, timeoutMs = 2_000): Promise<RpcRelayResponse> {
  return forwardJsonRpc({ url, request, timeoutMs, upstream, unavailableMessage })
}

/** The AppError `forwardJsonRpc` rejected with (fails the test when it resolved). */
async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(AppError)
  return error as AppError
}

describe('forwardJsonRpc', () => {
  it('sends the request as it came (id, method, params) and returns the answer as it came', async () => {
    const received: unknown[] = []
    const url = await listen((request, body, response) => {
      received.push({ method: request.method, type: request.headers['content-type'], body: JSON.parse(body) })
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ jsonrpc: '2.0', id: 'op-7', error: { code: -32602, message: 'AA21' } }))
    })
    const answer = await forward(url, {
      jsonrpc: '2.0',
      id: 'op-7',
      method: 'eth_sendUserOperation',
      params: [{ sender: '0x01' }],
    })
    expect(answer).toEqual({ jsonrpc: '2.0', id: 'op-7', error: { code: -32602, message: 'AA21' } })
    expect(received).toEqual([
      {
        method: 'POST',
        type: 'application/json',
        body: { jsonrpc: '2.0', id: 'op-7', method: 'eth_sendUserOperation', params: [{ sender: '0x01' }] },
      },
    ])
  })

  it('sends params [] when the request has none', async () => {
    let params: unknown
    const url = await listen((_request, body, response) => {
      params = (JSON.parse(body) as { params: unknown }).params
      response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x2105' }))
    })
    const answer = await forward(url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })
    expect(answer).toEqual({ jsonrpc: '2.0', id: 1, result: '0x2105' })
    expect(params).toEqual([])
  })

  it('rejects with 503 and the caller-facing message when the far end is down, never naming its URL', async () => {
    const url = await listen(() => {})
    const closed = servers.pop()
    await new Promise<void>((resolve) => closed?.close(() => resolve()))
    const error = await rejection(forward(url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }))
    expect(error.status).toBe(503)
    expect(error.toBody()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: unavailableMessage } })
    expect(error.message).toBe(`${upstream} did not answer eth_chainId`)
    expect(JSON.stringify(error.toBody())).not.toContain('secret-api-key')
  })

  it('gives up on a far end that never answers after timeoutMs', async () => {
    const url = await listen(() => {
      // Reads the request and never answers.
    })
    const startedAt = performance.now()
    const error = await rejection(
      forward(url, { jsonrpc: '2.0', id: 1, method: 'eth_getUserOperationReceipt', params: ['0x01'] }, 300),
    )
    expect(performance.now() - startedAt).toBeLessThan(5_000)
    expect(error.status).toBe(503)
    expect(error.message).toBe(`${upstream} did not answer eth_getUserOperationReceipt`)
  })

  it('rejects with 503 an answer that is not JSON-RPC: an HTML error page, or JSON of another shape', async () => {
    const answers = [
      { status: 502, type: 'text/html', body: '<html>Bad Gateway</html>' },
      { status: 200, type: 'application/json', body: JSON.stringify({ result: '0x1' }) },
    ]
    const url = await listen((_request, _body, response) => {
      const answer = answers.shift()
      response.writeHead(answer?.status ?? 500, { 'content-type': answer?.type ?? 'text/plain' })
      response.end(answer?.body ?? '')
    })
    for (const status of [502, 200]) {
      const error = await rejection(forward(url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }))
      expect(error.status).toBe(503)
      expect(error.message).toBe(`${upstream} answered ${status} without JSON-RPC`)
      expect(error.userMessage).toBe(unavailableMessage)
    }
  })
})
