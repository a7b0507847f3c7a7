import type { Connector } from 'wagmi'

/** The EIP-6963 rdns of a connector: wagmi names each announced wallet's connector by it. */
export function getConnectorRdns(connector: Connector): string | undefined {
  if (typeof connector.rdns === 'string') return connector.rdns
  if (Array.isArray(connector.rdns)) return connector.rdns[0]
  return connector.type === 'injected' && connector.id !== 'injected' ? connector.id : undefined
}
