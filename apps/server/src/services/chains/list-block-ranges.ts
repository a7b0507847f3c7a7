/** Blocks per eth_getLogs call, below the usual provider limits. */
export const maxLogBlockRange = 2000n

/**
 * The consecutive ranges [from, to] that cover `fromBlock`..`toBlock`, each at most
 * `maxLogBlockRange` blocks: oldest first, or newest first when asked (a recent event is usually
 * in the last range). Yields nothing when `fromBlock` is past `toBlock`.
 */
export function* listBlockRanges(
  fromBlock: bigint,
  toBlock: bigint,
  options: { newestFirst?: boolean } = {},
): Generator<[bigint, bigint]> {
  if (options.newestFirst) {
    for (let to = toBlock; to >= fromBlock; to -= maxLogBlockRange) {
      const from = to - maxLogBlockRange + 1n > fromBlock ? to - maxLogBlockRange + 1n : fromBlock
      yield [from, to]
    }
    return
  }
  for (let from = fromBlock; from <= toBlock; from += maxLogBlockRange) {
    const to = from + maxLogBlockRange - 1n < toBlock ? from + maxLogBlockRange - 1n : toBlock
    yield [from, to]
  }
}
