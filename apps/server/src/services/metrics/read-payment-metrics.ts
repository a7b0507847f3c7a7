import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { sql } from 'drizzle-orm'

/** Quantiles of a duration in seconds over a recent window; null when nothing finished in it. */
export type DurationQuantiles = { p50: number | null; p90: number | null; p99: number | null; count: number }

export type PaymentMetrics = {
  /** Route intents per provider and normalised status ('quoted' for routes nobody paid yet). */
  intents: { provider: string; status: string; count: number }[]
  /** Quote (route intent created) → success, for intents that succeeded in the window. */
  quoteToSuccess: DurationQuantiles
  /** Deposit seen by the relayer → filled on the destination chain, for fills in the window. */
  depositToFill: DurationQuantiles
  /** Seconds the oldest due item has waited for its worker (0 when none is overdue). */
  workerLagSeconds: { tracker: number; relayer: number; webhooks: number }
  /** Webhook deliveries per state (pending is the queue's depth). */
  webhookDeliveries: { state: string; count: number }[]
  /** Webhook tries in the window by outcome: 2xx, 3xx, 4xx, 5xx, or error (no answer). */
  webhookAttempts: { outcome: string; count: number }[]
  /** Relayer deposits per state. */
  deposits: { state: string; count: number }[]
}

/** Relayer states that need no more work. */
const finalDepositStates = ['settled', 'refunded', 'failed', 'ignored', 'orphaned']

/**
 * Reads the payment figures `/metrics` exports, straight from the tables every instance shares,
 * so each instance reports the same truth (nothing is counted per process). Durations are
 * quantiles over the last `windowSeconds` (default one hour). One round trip per figure; meant
 * for a scrape every few seconds, not for the request path.
 */
export async function readPaymentMetrics(db: Database, windowSeconds = 3_600): Promise<PaymentMetrics> {
  const [
    intents,
    quoteToSuccess,
    depositToFill,
    trackerLag,
    relayerLag,
    deposits,
    webhookLag,
    webhookDeliveries,
    webhookAttempts,
  ] = await Promise.all([
    readRows<{ provider: string; status: string | null; count: string | number }>(
      db,
      sql`select provider, status, count(*) as count from route_intents group by provider, status`,
    ),
    readQuantiles(
      db,
      sql`select extract(epoch from (completed_at - created_at)) as seconds from route_intents
          where status = 'success' and completed_at is not null
            and completed_at > now() - make_interval(secs => ${windowSeconds})`,
    ),
    readQuantiles(
      db,
      sql`select extract(epoch from (filled_at - created_at)) as seconds from relayer_deposits
          where filled_at is not null and filled_at > now() - make_interval(secs => ${windowSeconds})`,
    ),
    readRows<{ lag: string | number | null }>(
      db,
      sql`select extract(epoch from (now() - min(next_check_at))) as lag from route_intents
          where next_check_at is not null and next_check_at <= now()`,
    ),
    readRows<{ lag: string | number | null }>(
      db,
      sql`select extract(epoch from (now() - min(next_attempt_at))) as lag from relayer_deposits
          where next_attempt_at <= now() and state not in (${sql.join(
            finalDepositStates.map((state) => sql`${state}`),
            sql`, `,
          )})`,
    ),
    readRows<{ state: string; count: string | number }>(
      db,
      sql`select state, count(*) as count from relayer_deposits group by state`,
    ),
    readRows<{ lag: string | number | null }>(
      db,
      sql`select extract(epoch from (now() - min(next_attempt_at))) as lag from webhook_deliveries
          where state = 'pending' and next_attempt_at <= now()`,
    ),
    readRows<{ state: string; count: string | number }>(
      db,
      sql`select state, count(*) as count from webhook_deliveries group by state`,
    ),
    readRows<{ outcome: string; count: string | number }>(
      db,
      sql`select case when status_code is null then 'error' else (status_code / 100)::text || 'xx' end as outcome,
                 count(*) as count
          from webhook_attempts where created_at > now() - make_interval(secs => ${windowSeconds})
          group by 1`,
    ),
  ])
  return {
    intents: intents.map((row) => ({
      provider: row.provider,
      status: row.status ?? 'quoted',
      count: Number(row.count),
    })),
    quoteToSuccess,
    depositToFill,
    workerLagSeconds: {
      tracker: toLag(trackerLag[0]?.lag),
      relayer: toLag(relayerLag[0]?.lag),
      webhooks: toLag(webhookLag[0]?.lag),
    },
    deposits: deposits.map((row) => ({ state: row.state, count: Number(row.count) })),
    webhookDeliveries: webhookDeliveries.map((row) => ({ state: row.state, count: Number(row.count) })),
    webhookAttempts: webhookAttempts.map((row) => ({ outcome: row.outcome, count: Number(row.count) })),
  }
}

async function readRows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  // node-postgres and PGlite both answer `{ rows }`.
  const result = (await db.execute(query)) as unknown as { rows: T[] }
  return result.rows
}

async function readQuantiles(db: Database, durations: ReturnType<typeof sql>): Promise<DurationQuantiles> {
  const [row] = await readRows<{ p50: unknown; p90: unknown; p99: unknown; count: unknown }>(
    db,
    sql`select percentile_cont(0.5) within group (order by seconds) as p50,
               percentile_cont(0.9) within group (order by seconds) as p90,
               percentile_cont(0.99) within group (order by seconds) as p99,
               count(*) as count
        from (${durations}) as durations`,
  )
  const count = Number(row?.count ?? 0)
  const read = (value: unknown) => (count === 0 || value === null ? null : Number(value))
  return { p50: read(row?.p50), p90: read(row?.p90), p99: read(row?.p99), count }
}

function toLag(value: string | number | null | undefined): number {
  const lag = value === null || value === undefined ? 0 : Number(value)
  return Number.isFinite(lag) && lag > 0 ? lag : 0
}
