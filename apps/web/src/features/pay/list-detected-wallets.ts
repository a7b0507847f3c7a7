import type { Connector } from 'wagmi'
import { getConnectorRdns } from './get-connector-rdns'
import { findCatalogueEntryByFlags } from './wallet-catalogue'
import type { DetectedWallet } from './wallet-step'

/**
 * The wallets the browser offers: every EIP-6963 announcement (wagmi makes each an injected connector
 * whose id is the rdns), and the legacy `window.ethereum` only when nothing announced itself, named
 * after the catalogue wallet its `is…` flags say it is ('Browser Wallet' when none does).
 */
export function listDetectedWallets(
  connectors: readonly Connector[],
  legacyProvider: unknown = typeof window === 'undefined' ? undefined : readLegacyProvider(),
): DetectedWallet[] {
  const wallets: DetectedWallet[] = []
  for (const connector of connectors) {
    const rdns = getConnectorRdns(connector)
    if (rdns === undefined) continue
    wallets.push({ id: connector.uid, name: connector.name, icon: connector.icon, rdns })
  }
  if (wallets.length > 0) return wallets
  const legacy = connectors.find((connector) => connector.id === 'injected')
  if (legacyProvider === undefined || legacy === undefined) return wallets
  const entry = findCatalogueEntryByFlags(legacyProvider)
  wallets.push({ id: legacy.uid, name: entry?.name ?? 'Browser Wallet', rdns: entry?.detect.rdns[0] })
  return wallets
}

/** The page's legacy injected provider, `window.ethereum`, if a wallet set one. */
export function readLegacyProvider(): unknown {
  return (window as { ethereum?: unknown }).ethereum
}
