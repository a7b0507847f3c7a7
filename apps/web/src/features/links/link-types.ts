import { CreditCard, type LucideIcon, Wallet } from 'lucide-react'

/**
 * The destination styles a payee can pick on the link type page (docs/product.md#link-types).
 */
export type LinkTypePreset = { chain: string; chain_id: number; token_name: string }

export type LinkTypeLimits = {
  /** Network identifiers the type allows; all when absent. */
  chains?: readonly string[]
  /** Token symbols the type allows on any chain; all when absent. */
  tokenSymbols?: readonly string[]
  /** Token symbols per network identifier, when they differ per chain. */
  tokenSymbolsByChain?: Readonly<Record<string, readonly string[]>>
}

export type LinkTypeDefinition = {
  id: string
  title: string
  subtitle: string
  /** An icon component: an emoji would need a colour-emoji font that not every device has. */
  icon: LucideIcon
  preset?: LinkTypePreset
  limits?: LinkTypeLimits
}

export const linkTypes: readonly LinkTypeDefinition[] = [
  {
    id: 'custom',
    title: 'Crypto Payment Page',
    subtitle: 'Receive any token on the chain you choose.',
    icon: Wallet,
  },
  {
    id: 'avax-card',
    title: 'Avax Card Payment Page',
    subtitle: 'Top up an Avalanche card: USDC, USDT or AVAX on Avalanche.',
    icon: CreditCard,
    preset: { chain: 'avalanche', chain_id: 43114, token_name: 'USDC' },
    limits: { chains: ['avalanche'], tokenSymbols: ['USDC', 'USDT', 'AVAX'] },
  },
]

/** The modal shows at most the first 6 link types (docs/product.md#link-types). */
export const maxShownLinkTypes = 6

/** The type whose title a link carries, if any (edit mode finds its limits this way). */
export function findLinkTypeByTitle(title: string): LinkTypeDefinition | undefined {
  return linkTypes.find((type) => type.title === title)
}

export function findLinkType(id: string): LinkTypeDefinition | undefined {
  return linkTypes.find((type) => type.id === id)
}
