import { Counter, Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { createRequestSeries } from './create-request-series.ts'

const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const names = {
  counterName: 'ql_http_requests_total',
  counterHelp: 'Requests.',
  histogramName: 'ql_http_request_duration_seconds',
  histogramHelp: 'Latency.',
}

describe('createRequestSeries', () => {
  // Samples may come in another order (by route here, by first answer in prom-client): the same
  // lines in the same metric blocks, which is all Prometheus reads.
  it("prints the lines prom-client's Counter and Histogram print for the same requests", async () => {
    const expected = new Registry()
    const counter = new Counter({
      name: names.counterName,
      help: names.counterHelp,
      labelNames: ['method', 'route', 'status_code'],
      registers: [expected],
    })
    const histogram = new Histogram({
      name: names.histogramName,
      help: names.histogramHelp,
      labelNames: ['method', 'route'],
      buckets,
      registers: [expected],
    })
    const actual = new Registry()
    const series = createRequestSeries({ registry: actual, ...names, buckets })
    const read = series.createSeries('GET', '/api/pay/links/:slug')
    const write = series.createSeries('POST', '/api/links')
    series.createSeries('DELETE', '/api/links/:id') // bound, never answered: no samples
    const requests = [
      [read, 'GET', '/api/pay/links/:slug', 200, 0.001],
      [read, 'GET', '/api/pay/links/:slug', 200, 0.005],
      [read, 'GET', '/api/pay/links/:slug', 404, 0.03],
      [write, 'POST', '/api/links', 201, 0.2],
      [read, 'GET', '/api/pay/links/:slug', 429, 11],
      [write, 'POST', '/api/links', 422, 0.0051],
    ] as const
    for (const [bound, method, route, status, seconds] of requests) {
      counter.labels(method, route, String(status)).inc()
      histogram.labels(method, route).observe(seconds)
      bound.record(status, seconds)
    }
    const blocks = (text: string) => text.split('\n\n').map((block) => block.split('\n').sort())
    expect(blocks(await actual.metrics())).toEqual(blocks(await expected.metrics()))
    expect(await actual.metrics()).toContain(
      'ql_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/pay/links/:slug"} 2',
    )
  })
})
