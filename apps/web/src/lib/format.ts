/** Display helpers shared by screens. Pure; no locale state. */

/**
 * Middle-truncates an address or hash for display: the first `head` and last `tail` characters
 * around an ellipsis (6 and 4 by default; docs/product.md#addresses-and-hashes). Short values come back
 * unchanged.
 */
export function maskMiddle(value: string, head = 6, tail = 4): string {
  if (value.length <= head + tail + 1) return value
  return `${value.slice(0, head)}…${value.slice(-tail)}`
}

const chainNames: Record<string, string> = {
  base: 'Base',
  avalanche: 'Avalanche',
  arbitrum: 'Arbitrum',
  'arbitrum-one': 'Arbitrum',
  ethereum: 'Ethereum',
  optimism: 'Optimism',
  polygon: 'Polygon',
}

/** 'base' → 'Base'; unknown names are title-cased word by word. */
export function formatChainName(chain: string): string {
  const known = chainNames[chain.toLowerCase()]
  if (known !== undefined) return known
  return chain
    .split(/[-_\s]+/)
    .filter((word) => word.length > 0)
    .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join(' ')
}
