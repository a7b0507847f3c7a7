import type { FrameRequest, FrameResponse } from '@quicklinks/protocol/frame-messages'
import { describe, expect, it } from 'vitest'
import { listenToParent } from './listen-to-parent.ts'

type Listener = (event: MessageEvent<unknown>) => void

/** A window stand-in: the frame under test only reads origin, source, data and ports. */
function createFakeWindow() {
  const parent = {} as Window
  const listeners: Listener[] = []
  const window = {
    parent,
    addEventListener: (_type: string, listener: Listener) => listeners.push(listener),
  } as unknown as Window
  const post = (data: unknown, origin: string, source: unknown, ports: MessagePort[]) => {
    for (const listener of listeners)
      listener({ data, origin, source, ports } as unknown as MessageEvent<unknown>)
  }
  return { window, parent, post }
}

const handle = async (request: FrameRequest): Promise<FrameResponse> => {
  if (request.type === 'INIT_EMBEDDED_KEY')
    return { type: 'EMBEDDED_PUBLIC_KEY', requestId: request.requestId, targetPublicKey: '04ab' }
  if (request.type === 'STAMP_REQUEST')
    return { type: 'STAMP', requestId: request.requestId, stampHeaderName: 'X-Stamp', stampHeaderValue: 'v' }
  throw new Error('boom')
}

function nextMessage(port: MessagePort): Promise<unknown> {
  return new Promise((resolve) => {
    port.onmessage = (event) => resolve(event.data)
  })
}

describe('listenToParent', () => {
  it('answers the handshake and later requests over the port from the app origin', async () => {
    const fake = createFakeWindow()
    listenToParent({ window: fake.window, parentOrigin: 'https://app.example', handle })
    const channel = new MessageChannel()
    const first = nextMessage(channel.port1)
    fake.post({ type: 'INIT_EMBEDDED_KEY', requestId: 'a' }, 'https://app.example', fake.parent, [
      channel.port2,
    ])
    expect(await first).toEqual({ type: 'EMBEDDED_PUBLIC_KEY', requestId: 'a', targetPublicKey: '04ab' })
    const second = nextMessage(channel.port1)
    channel.port1.postMessage({ type: 'STAMP_REQUEST', requestId: 'b', body: '{}' })
    expect(await second).toMatchObject({ type: 'STAMP', requestId: 'b' })
    channel.port1.close()
  })

  it('ignores a handshake from another origin or another window', async () => {
    const fake = createFakeWindow()
    const handled: FrameRequest[] = []
    const recordingHandle = (request: FrameRequest) => {
      handled.push(request)
      return handle(request)
    }
    listenToParent({ window: fake.window, parentOrigin: 'https://app.example', handle: recordingHandle })
    // The frame decides inside the message event, synchronously: a refused handshake is never
    // handled and its port never listened on, so no answer can come later.
    const wrongOrigin = new MessageChannel()
    fake.post({ type: 'INIT_EMBEDDED_KEY', requestId: 'a' }, 'https://evil.example', fake.parent, [
      wrongOrigin.port2,
    ])
    const wrongSource = new MessageChannel()
    fake.post({ type: 'INIT_EMBEDDED_KEY', requestId: 'b' }, 'https://app.example', {}, [wrongSource.port2])
    expect(handled).toEqual([])
    expect(wrongOrigin.port2.onmessage).toBeNull()
    expect(wrongSource.port2.onmessage).toBeNull()
    // The parent's own handshake is still answered.
    const channel = new MessageChannel()
    const answer = nextMessage(channel.port1)
    fake.post({ type: 'INIT_EMBEDDED_KEY', requestId: 'c' }, 'https://app.example', fake.parent, [
      channel.port2,
    ])
    expect(await answer).toEqual({ type: 'EMBEDDED_PUBLIC_KEY', requestId: 'c', targetPublicKey: '04ab' })
    expect(handled.map((request) => request.requestId)).toEqual(['c'])
    for (const port of [
      wrongOrigin.port1,
      wrongOrigin.port2,
      wrongSource.port1,
      wrongSource.port2,
      channel.port1,
    ])
      port.close()
  })

  it('answers a failed request with ERROR on the port', async () => {
    const fake = createFakeWindow()
    listenToParent({ window: fake.window, parentOrigin: 'https://app.example', handle })
    const channel = new MessageChannel()
    const first = nextMessage(channel.port1)
    fake.post({ type: 'INIT_EMBEDDED_KEY', requestId: 'a' }, 'https://app.example', fake.parent, [
      channel.port2,
    ])
    await first
    const answer = nextMessage(channel.port1)
    channel.port1.postMessage({ type: 'RESET_EMBEDDED_KEY', requestId: 'c' })
    expect(await answer).toEqual({ type: 'ERROR', requestId: 'c', message: 'Unknown error' })
    channel.port1.close()
  })
})
