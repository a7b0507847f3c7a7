import type { Connector } from 'wagmi'
import { getConnectorRdns } from './get-connector-rdns'
import type { DetectedWallet } from './wallet-step'

/**
 * The wallets the browser offers: every EIP-6963 announcement (wagmi makes each an injected connector
 * whose id is the rdns), and the legacy `window.ethereum` only when nothing announced itself.
 */
export function listDetectedWallets(connectors: readonly Connector[]): DetectedWallet[] {
  const wallets: DetectedWallet[] = []
  for (const connector of connectors) {
    const rdns = getConnectorRdns(connector)
    if (rdns === undefined) continue
    wallets.push({ id: connector.uid, name: connector.name, icon: connector.icon, rdns })
  }
  if (wallets.length > 0) return wallets
  const hasLegacy = typeof window !== 'undefined' && (window as { ethereum?: unknown }).ethereum !== undefined
  const legacy = connectors.find((connector) => connector.id === 'injected')
  if (hasLegacy && legacy !== undefined) wallets.push({ id: legacy.uid, name: 'Browser Wallet' })
  return wallets
}
