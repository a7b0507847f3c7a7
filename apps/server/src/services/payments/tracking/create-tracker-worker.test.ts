import { createLogger } from '@quicklinks/runtime/create-logger'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestConfig, createTestDatabase } from '../../../../test/build-test-app.ts'
import { routeIntents } from '../../../db/schema.ts'
import { getRoutingProvider } from '../providers/get-routing-provider.ts'
import { createTrackerWorker } from './create-tracker-worker.ts'

let database: DatabaseClient

beforeAll(async () => {
  database = await createTestDatabase()
})

afterAll(async () => {
  await database?.close()
})

const intent = (id: string, createdAt: Date, sourceTxHash: string | null) => ({
  id,
  provider: 'local',
  fromChainId: 8453,
  toChainId: 8453,
  fromToken: '0x1',
  toToken: '0x1',
  fromAmount: '1',
  toAmount: '1',
  toAmountMin: '1',
  fromAddress: '0xaa',
  toAddress: '0xbb',
  slippage: 1,
  transactionRequest: {},
  actions: [],
  sourceTxHash,
  statusRaw: sourceTxHash ? 'success' : null,
  status: sourceTxHash ? 'success' : null,
  createdAt,
})

describe('the tracker’s housekeeping', () => {
  it('deletes routes nobody paid within a week, and keeps paid ones and recent quotes', async () => {
    const now = Date.now()
    const eightDaysAgo = new Date(now - 8 * 24 * 60 * 60_000)
    await database.db
      .insert(routeIntents)
      .values([
        intent(`0x${'01'.repeat(32)}`, eightDaysAgo, null),
        intent(`0x${'02'.repeat(32)}`, eightDaysAgo, `0x${'aa'.repeat(32)}`),
        intent(`0x${'03'.repeat(32)}`, new Date(now - 60_000), null),
      ])
    const config = createTestConfig()
    const worker = createTrackerWorker({
      db: database.db,
      provider: getRoutingProvider(config),
      config,
      logger: createLogger('silent'),
    })
    await worker.runOnce('')
    const left = await database.db.select({ id: routeIntents.id }).from(routeIntents)
    expect(left.map((row) => row.id).sort()).toEqual([`0x${'02'.repeat(32)}`, `0x${'03'.repeat(32)}`])
  })
})
