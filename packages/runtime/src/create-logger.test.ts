import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { createLogger, redactUrl } from './create-logger.ts'

function captureLogger() {
  const lines: string[] = []
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) })
  return { logger, text: () => lines.join('') }
}

describe('createLogger', () => {
  it('logs request paths without their query strings (magic-link tokens, contacts)', async () => {
    const { logger, text } = captureLogger()
    const app = Fastify({ loggerInstance: logger })
    app.get('/auth/complete', async () => ({ ok: true }))
    await app.inject({ url: '/auth/complete?token=magic-secret-123&email=ann%40example.com' })
    await app.close()
    expect(text()).toContain('"url":"/auth/complete?[redacted]"')
    expect(text()).not.toContain('magic-secret-123')
    expect(text()).not.toContain('ann%40example.com')
  })

  it('cuts credentials out of RPC URLs quoted in messages and errors, keeping hosts and 0x values', async () => {
    const { logger, text } = captureLogger()
    const rpcUrl = 'https://base-mainnet.g.alchemy.com/v2/Zk3pQ9xLmN2bV7cR1tY8'
    logger.warn(`Cannot reach ${rpcUrl}`)
    logger.error(
      { err: new Error('HTTP request failed. URL: https://rpc:hunter2@node.example/?apikey=abc123') },
      'RPC failed',
    )
    logger.info('Read https://explorer.example/tx/0xabc123def4567890abc123def4567890')
    expect(text()).toContain('https://base-mainnet.g.alchemy.com/v2/[redacted]')
    expect(text()).toContain('https://[redacted]@node.example/?[redacted]')
    expect(text()).toContain('/tx/0xabc123def4567890abc123def4567890')
    for (const secret of ['Zk3pQ9xLmN2bV7cR1tY8', 'hunter2', 'abc123"']) expect(text()).not.toContain(secret)
  })

  it('leaves plain paths and non-URLs alone', () => {
    expect(redactUrl('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545')
    expect(redactUrl('https://mainnet.infura.io/v3/9aa3d95b3bc440fa88ea12eaa4456161')).toBe(
      'https://mainnet.infura.io/v3/[redacted]',
    )
    expect(redactUrl('not a url')).toBe('not a url')
  })
})
