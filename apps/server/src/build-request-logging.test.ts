import { createLogger } from '@quicklinks/runtime/create-logger'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { buildRequestLogging } from './build-request-logging.ts'

async function buildLoggedApp(level: 'info' | 'debug') {
  const lines: Record<string, unknown>[] = []
  const logger = createLogger(level, {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  })
  const app = Fastify({ loggerInstance: logger, ...buildRequestLogging() })
  app.get('/read', async () => ({ ok: true }))
  app.get('/quiet', { logLevel: 'error' }, async (request) => ({ level: request.log.level }))
  app.post('/write', async (request) => {
    request.log.warn({ step: 'saving' }, 'writing')
    return { ok: true }
  })
  await app.ready()
  return { app, lines }
}

describe('buildRequestLogging', () => {
  it('writes one line per write or refusal under its request id, none for a fast read at info', async () => {
    const { app, lines } = await buildLoggedApp('info')
    await app.inject({ url: '/read?token=secret' })
    await app.inject({ method: 'POST', url: '/write' })
    await app.inject({ url: '/missing' })
    await app.close()

    const completed = lines.filter((line) => line.msg === 'request completed')
    expect(
      completed.map((line) => [
        (line.req as { url: string }).url,
        (line.res as { statusCode: number }).statusCode,
      ]),
    ).toEqual([
      ['/write', 200],
      ['/missing', 404],
    ])
    const written = lines.find((line) => line.msg === 'writing')
    expect(written).toMatchObject({ level: 40, step: 'saving', reqId: completed[0]?.reqId })
    expect(typeof written?.reqId).toBe('string')
    expect(lines.some((line) => JSON.stringify(line).includes('secret'))).toBe(false)
  })

  it('writes fast reads at debug, without their query strings', async () => {
    const { app, lines } = await buildLoggedApp('debug')
    await app.inject({ url: '/read?token=secret' })
    await app.close()
    const completed = lines.filter((line) => line.msg === 'request completed')
    expect(completed).toHaveLength(1)
    expect(completed[0]).toMatchObject({
      level: 20,
      req: { url: '/read?[redacted]' },
      res: { statusCode: 200 },
    })
  })

  it("gives a route's handler the route's own log level", async () => {
    const { app } = await buildLoggedApp('info')
    const response = await app.inject({ url: '/quiet' })
    await app.close()
    expect(response.json()).toEqual({ level: 'error' })
  })
})
