import type { Registry } from 'prom-client'

/** One route and method's request figures: a request adds to plain numbers; a scrape reads them. */
export type RequestSeries = {
  /** Counts one answered request with its status and time (seconds). */
  record(statusCode: number, seconds: number): void
}

export type RequestSeriesOptions = {
  registry: Registry
  /** The request counter's name, e.g. 'ql_http_requests_total' (labels method, route, status_code). */
  counterName: string
  counterHelp: string
  /** The latency histogram's name, e.g. 'ql_http_request_duration_seconds' (labels method, route). */
  histogramName: string
  histogramHelp: string
  /** The histogram's upper bounds in seconds, ascending. */
  buckets: readonly number[]
}

type Series = {
  labels: { method: string; route: string }
  byStatus: Map<number, number>
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  bucketCounts: number[]
  sum: number
  count: number
}

type MetricValue = {
  labels: Record<string, string | number>
  sharedLabels?: Record<string, string>
  value: number
  metricName?: string
}
type MetricData = { name: string; help: string; type: string; values: MetricValue[]; aggregator: 'sum' }

/**
 * The per-route request counter and latency histogram, registered in `registry` under the same
 * names, labels and text as prom-client's Counter and Histogram would print, but kept as plain
 * numbers per series: prom-client hashes the label values on every inc() and observe(), a
 * measurable part of a cached read's cost. `createSeries` binds one route and method once.
 */
export function createRequestSeries(options: RequestSeriesOptions): {
  createSeries(method: string, route: string): RequestSeries
} {
  const all: Series[] = []
  const bounds = [...options.buckets]

  const counterValues = (): MetricValue[] =>
    all.flatMap((series) =>
      [...series.byStatus].map(([statusCode, value]) => ({
        labels: { ...series.labels, status_code: String(statusCode) },
        value,
      })),
    )

  // The histogram's samples as prom-client's Histogram lays them out: cumulative buckets with the
  // route's labels shared, then +Inf, _sum and _count.
  const histogramValues = (): MetricValue[] =>
    all
      .filter((series) => series.count > 0)
      .flatMap((series): MetricValue[] => {
        let cumulative = 0
        const sharedLabels = series.labels
        const buckets: MetricValue[] = bounds.map((bound, index) => {
          cumulative += series.bucketCounts[index] ?? 0
          return {
            labels: { le: bound },
            sharedLabels,
            value: cumulative,
            metricName: `${options.histogramName}_bucket`,
          }
        })
        return [
          ...buckets,
          {
            labels: { le: '+Inf' },
            sharedLabels,
            value: series.count,
            metricName: `${options.histogramName}_bucket`,
          },
          { labels: {}, sharedLabels, value: series.sum, metricName: `${options.histogramName}_sum` },
          { labels: {}, sharedLabels, value: series.count, metricName: `${options.histogramName}_count` },
        ]
      })

  // prom-client's JSON form (get) merges the shared labels into each sample's own.
  const splay = (values: MetricValue[]): MetricValue[] =>
    values.map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } }))

  const metric = (
    name: string,
    help: string,
    type: string,
    read: () => MetricValue[],
    reset: (series: Series) => void,
  ) => {
    const data = (values: MetricValue[]): MetricData => ({ name, help, type, values, aggregator: 'sum' })
    return {
      name,
      help,
      type,
      aggregator: 'sum' as const,
      getForPromString: async () => data(read()),
      get: async () => data(splay(read())),
      reset: () => {
        for (const series of all) reset(series)
      },
    }
  }
  // The registry reads only these members (name, help, type, get, getForPromString).
  const register = (value: ReturnType<typeof metric>) =>
    options.registry.registerMetric(value as unknown as Parameters<Registry['registerMetric']>[0])
  register(
    metric(options.counterName, options.counterHelp, 'counter', counterValues, (series) =>
      series.byStatus.clear(),
    ),
  )
  register(
    metric(options.histogramName, options.histogramHelp, 'histogram', histogramValues, (series) => {
      series.bucketCounts.fill(0)
      series.sum = 0
      series.count = 0
    }),
  )

  return {
    createSeries(method, route) {
      const series: Series = {
        labels: { method, route },
        byStatus: new Map(),
        bucketCounts: new Array<number>(bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      }
      all.push(series)
      return {
        record(statusCode, seconds) {
          series.byStatus.set(statusCode, (series.byStatus.get(statusCode) ?? 0) + 1)
          let index = 0
          while (index < bounds.length && seconds > (bounds[index] ?? 0)) index += 1
          series.bucketCounts[index] = (series.bucketCounts[index] ?? 0) + 1
          series.sum += seconds
          series.count += 1
        },
      }
    },
  }
}
