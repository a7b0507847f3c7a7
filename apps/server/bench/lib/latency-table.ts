/** One bench row: an operation's sample count, failures, and median and p95 latency in ms. */
export type LatencyRow = { operation: string; n: number; failed: number; median: number; p95: number }

/** The nearest-rank percentile of ascending `sorted`; NaN when it is empty. */
function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)
  return sorted[Math.max(0, index)] ?? Number.NaN
}

/** A row from an operation's latency samples (ms) and its failure count. */
export function summarizeLatencies(operation: string, samples: number[], failed: number): LatencyRow {
  const sorted = [...samples].sort((left, right) => left - right)
  return {
    operation,
    n: samples.length,
    failed,
    median: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
  }
}

/** Prints `title` and the rows as an aligned table (operation, n, failed, median ms, p95 ms). */
export function printLatencyTable(title: string, rows: LatencyRow[]): void {
  const header = ['operation', 'n', 'failed', 'median ms', 'p95 ms']
  const cells = rows.map((row) => [
    row.operation,
    String(row.n),
    String(row.failed),
    row.median.toFixed(1),
    row.p95.toFixed(1),
  ])
  const widths = header.map((heading, column) =>
    Math.max(heading.length, ...cells.map((line) => line[column]?.length ?? 0)),
  )
  const format = (line: string[]) =>
    line
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
  console.log(`\n${title}`)
  console.log(format(header))
  console.log(widths.map((width) => '-'.repeat(width)).join('  '))
  for (const line of cells) console.log(format(line))
}
