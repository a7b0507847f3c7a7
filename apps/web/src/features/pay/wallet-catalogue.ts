/**
 * The wallet catalogue (docs/product.md#wallet-catalogue): the wallets step 0 offers, with local monogram
 * logos (no image ever leaves the app's origin), EIP-6963 rdns values to match a detected wallet, and where
 * to send a payer whose browser has no such wallet: a deep link on a phone, the home page otherwise.
 */

export type WalletCategory = 'injected' | 'app' | 'walletconnect'

export type WalletCatalogueEntry = {
  id: string
  name: string
  category: WalletCategory
  /** A monogram on the brand colour. */
  logo: { initials: string; background: string; foreground: string }
  emoji: string
  homepage: string
  storeLinks: { ios?: string; android?: string }
  /** Opens `url` inside the wallet's in-app browser (mobile). */
  buildDeepLink?: (url: string) => string
  /** EIP-6963 reverse-DNS ids and legacy `window.ethereum.is…` flags that mean this wallet. */
  detect: { rdns: string[]; flags: string[] }
}

const encode = encodeURIComponent

function stripScheme(url: string): string {
  return url.replace(/^https?:\/\//, '')
}

export const walletCatalogue: readonly WalletCatalogueEntry[] = [
  {
    id: 'metamask',
    name: 'MetaMask',
    category: 'injected',
    logo: { initials: 'MM', background: '#F6851B', foreground: '#111111' },
    emoji: '🦊',
    homepage: 'https://metamask.io/download/',
    storeLinks: {},
    buildDeepLink: (url) => `https://metamask.app.link/dapp/${stripScheme(url)}`,
    detect: { rdns: ['io.metamask', 'io.metamask.flask'], flags: ['isMetaMask'] },
  },
  {
    id: 'coinbase',
    name: 'Coinbase Wallet',
    category: 'app',
    logo: { initials: 'CB', background: '#0052FF', foreground: '#FFFFFF' },
    emoji: '🔵',
    homepage: 'https://www.coinbase.com/wallet',
    storeLinks: {},
    buildDeepLink: (url) => `https://go.cb-w.com/dapp?cb_url=${encode(url)}`,
    detect: { rdns: ['com.coinbase.wallet'], flags: ['isCoinbaseWallet'] },
  },
  {
    id: 'walletconnect',
    name: 'WalletConnect',
    category: 'walletconnect',
    logo: { initials: 'WC', background: '#3B99FC', foreground: '#111111' },
    emoji: '🔗',
    homepage: 'https://walletconnect.network/',
    storeLinks: {},
    detect: { rdns: [], flags: [] },
  },
  {
    id: 'rainbow',
    name: 'Rainbow',
    category: 'injected',
    logo: { initials: 'RB', background: '#001E59', foreground: '#FFFFFF' },
    emoji: '🌈',
    homepage: 'https://rainbow.me/',
    storeLinks: {},
    detect: { rdns: ['me.rainbow'], flags: ['isRainbow'] },
  },
  {
    id: 'phantom-evm',
    name: 'Phantom',
    category: 'injected',
    logo: { initials: 'PH', background: '#AB9FF2', foreground: '#1C1C1C' },
    emoji: '👻',
    homepage: 'https://phantom.com/',
    storeLinks: {},
    buildDeepLink: (url) => `https://phantom.app/ul/browse/${encode(url)}?ref=${encode(new URL(url).origin)}`,
    detect: { rdns: ['app.phantom'], flags: ['isPhantom'] },
  },
  {
    id: 'rabby',
    name: 'Rabby',
    category: 'injected',
    logo: { initials: 'RA', background: '#7084FF', foreground: '#111111' },
    emoji: '🐰',
    homepage: 'https://rabby.io/',
    storeLinks: {},
    detect: { rdns: ['io.rabby'], flags: ['isRabby'] },
  },
  {
    id: 'brave',
    name: 'Brave Wallet',
    category: 'injected',
    logo: { initials: 'BR', background: '#FB542B', foreground: '#111111' },
    emoji: '🦁',
    homepage: 'https://brave.com/wallet/',
    storeLinks: {},
    detect: { rdns: ['com.brave.wallet'], flags: ['isBraveWallet'] },
  },
  {
    id: 'okx',
    name: 'OKX Wallet',
    category: 'injected',
    logo: { initials: 'OK', background: '#000000', foreground: '#FFFFFF' },
    emoji: '⬛',
    homepage: 'https://www.okx.com/web3',
    storeLinks: {},
    buildDeepLink: (url) => `okx://wallet/dapp/url?dappUrl=${encode(url)}`,
    detect: { rdns: ['com.okex.wallet'], flags: ['isOkxWallet'] },
  },
  {
    id: 'zerion',
    name: 'Zerion',
    category: 'injected',
    logo: { initials: 'ZE', background: '#2962EF', foreground: '#FFFFFF' },
    emoji: '🟦',
    homepage: 'https://zerion.io/',
    storeLinks: {},
    detect: { rdns: ['io.zerion.wallet'], flags: ['isZerion'] },
  },
  {
    id: 'taho',
    name: 'Taho',
    category: 'injected',
    logo: { initials: 'TA', background: '#D08E39', foreground: '#111111' },
    emoji: '🐕',
    homepage: 'https://taho.xyz/',
    storeLinks: {},
    detect: { rdns: ['xyz.taho'], flags: ['isTally'] },
  },
  {
    id: 'safe',
    name: 'Safe',
    category: 'app',
    logo: { initials: 'SA', background: '#12FF80', foreground: '#121312' },
    emoji: '🛡️',
    homepage: 'https://app.safe.global/',
    storeLinks: {},
    detect: { rdns: [], flags: [] },
  },
  {
    id: 'imtoken',
    name: 'imToken',
    category: 'app',
    logo: { initials: 'iM', background: '#11C4D1', foreground: '#111111' },
    emoji: '💠',
    homepage: 'https://token.im/',
    storeLinks: {},
    buildDeepLink: (url) => `imtokenv2://navigate/DappView?url=${encode(url)}`,
    detect: { rdns: ['im.token'], flags: ['isImToken'] },
  },
  {
    id: 'trust',
    name: 'Trust Wallet',
    category: 'app',
    logo: { initials: 'TW', background: '#0500FF', foreground: '#FFFFFF' },
    emoji: '🛡',
    homepage: 'https://trustwallet.com/',
    storeLinks: {},
    buildDeepLink: (url) => `https://link.trustwallet.com/open_url?coin_id=60&url=${encode(url)}`,
    detect: { rdns: ['com.trustwallet.app'], flags: ['isTrust', 'isTrustWallet'] },
  },
  {
    id: 'bitget',
    name: 'Bitget Wallet',
    category: 'app',
    logo: { initials: 'BG', background: '#00F0FF', foreground: '#0C0C10' },
    emoji: '🟩',
    homepage: 'https://web3.bitget.com/',
    storeLinks: {},
    detect: { rdns: ['com.bitget.web3'], flags: ['isBitKeep', 'isBitget'] },
  },
  {
    id: 'kucoin',
    name: 'KuCoin Wallet',
    category: 'app',
    logo: { initials: 'KC', background: '#23AF91', foreground: '#111111' },
    emoji: '🟢',
    homepage: 'https://www.kucoin.com/web3',
    storeLinks: {},
    detect: { rdns: ['com.kucoin.wallet'], flags: ['isKuCoinWallet'] },
  },
]

/** The preferred display order; the other entries follow in catalogue order. */
export const preferredWalletOrder = [
  'metamask',
  'coinbase',
  'walletconnect',
  'rainbow',
  'phantom-evm',
  'rabby',
  'brave',
  'okx',
  'zerion',
  'taho',
  'trust',
  'safe',
] as const

/** The catalogue in the preferred order, filtered by a case-insensitive search of name and id. */
export function listPopularWallets(search: string): WalletCatalogueEntry[] {
  const rank = (id: string) => {
    const index = (preferredWalletOrder as readonly string[]).indexOf(id)
    return index === -1 ? preferredWalletOrder.length : index
  }
  const query = search.trim().toLowerCase()
  return [...walletCatalogue]
    .sort((left, right) => rank(left.id) - rank(right.id))
    .filter(
      (entry) => query.length === 0 || entry.name.toLowerCase().includes(query) || entry.id.includes(query),
    )
}

/** The catalogue entry an EIP-6963 wallet stands for (by rdns), if any. */
export function findCatalogueEntry(rdns: string | undefined): WalletCatalogueEntry | undefined {
  if (rdns === undefined) return undefined
  return walletCatalogue.find((entry) => entry.detect.rdns.includes(rdns))
}

/**
 * The catalogue entry a legacy injected provider (`window.ethereum`, no EIP-6963 announcement)
 * stands for, by its `is…` flags. Many wallets also set `isMetaMask` so that sites written for
 * MetaMask work with them, so another wallet's own flag wins over MetaMask's.
 */
export function findCatalogueEntryByFlags(provider: unknown): WalletCatalogueEntry | undefined {
  if (typeof provider !== 'object' || provider === null) return undefined
  const flags = provider as Record<string, unknown>
  const matches = walletCatalogue.filter((entry) => entry.detect.flags.some((flag) => flags[flag] === true))
  return matches.find((entry) => entry.id !== 'metamask') ?? matches[0]
}

/** A phone (its user agent, or a coarse pointer) gets deep links (docs/product.md#wallet-catalogue). */
export function isMobileDevice(
  userAgent: string = typeof navigator === 'undefined' ? '' : navigator.userAgent,
  hasCoarsePointer: boolean = typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(pointer: coarse)').matches,
): boolean {
  return /Android|iPhone|iPad|iPod|Mobile/i.test(userAgent) || hasCoarsePointer
}

/**
 * Where a wallet with no usable connector sends the payer: its deep link to `pageUrl` on mobile,
 * else (and when it has none) its store page on the phone's platform, else its home page.
 */
export function getWalletInstallUrl(
  entry: WalletCatalogueEntry,
  pageUrl: string,
  isMobile: boolean,
  userAgent = '',
): string {
  if (!isMobile) return entry.homepage
  if (entry.buildDeepLink !== undefined) return entry.buildDeepLink(pageUrl)
  if (/iPhone|iPad|iPod/i.test(userAgent) && entry.storeLinks.ios !== undefined) return entry.storeLinks.ios
  if (/Android/i.test(userAgent) && entry.storeLinks.android !== undefined) return entry.storeLinks.android
  return entry.homepage
}
