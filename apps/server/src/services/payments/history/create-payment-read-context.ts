import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { RoutingProvider } from '../route/routing-provider.ts'
import type { PaymentReadContext } from './list-payments.ts'
import { createPaymentTokenResolver } from './resolve-payment-tokens.ts'

/**
 * What naming payments needs (tokens, explorer links), from the routing provider's catalogue: its
 * chains' explorers, else the dev explorer on the devnet, else no link. A catalogue that cannot
 * load leaves the links to the dev explorer or null (they are a nicety).
 */
export async function createPaymentReadContext(input: {
  provider: Pick<RoutingProvider, 'chains' | 'tokens'>
  db: Database
  devMode: boolean
  publicOrigin: string
}): Promise<PaymentReadContext> {
  const chains = await input.provider.chains().catch(() => [])
  const explorers = new Map(chains.map((chain) => [chain.chainId, chain.blockExplorerUrl]))
  const devOrigin = input.devMode ? input.publicOrigin : null
  return {
    tokens: createPaymentTokenResolver(input.provider, input.db),
    buildTxUrl: (chainId, hash) => {
      const base = explorers.get(chainId)
      if (base) return `${base}/tx/${hash}`
      return devOrigin === null ? null : `${devOrigin}/api/dev/chains/${chainId}/tx/${hash}`
    },
  }
}
