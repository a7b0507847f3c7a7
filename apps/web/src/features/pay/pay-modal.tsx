import type { RoutingChain } from '@quicklinks/core/api/routing'
import { useMemo } from 'react'
import { WagmiProvider } from 'wagmi'
import { formatChainName } from '../../lib/format'
import { Skeleton } from '../../ui/skeleton'
import { selectOfferedChains } from '../routing/catalogue'
import { useChains } from '../routing/use-catalogue'
import type { FixedAmount } from './fixed-amount'
import { PayDialogShell } from './pay-dialog-shell'
import { PayFlow } from './pay-flow'
import type { PayLinkSummary } from './pay-link-summary'
import { payStepTitles } from './pay-modal-state'
import { getPayWagmiConfig } from './wagmi-config'
import { useWalletConnectSetting } from './wallet-connect-setting'

export type PayModalProps = {
  link: PayLinkSummary
  open: boolean
  onOpenChange: (open: boolean) => void
  onSuccess?: () => void
  onFailure?: () => void
  /** An invoice's amount due or a link's amount, shown locked (docs/product.md#paying-an-invoice-or-an-amount-link). */
  fixedAmount?: FixedAmount | undefined
}

function getFallbackChain(link: PayLinkSummary): RoutingChain {
  return {
    chainId: link.chain_id,
    networkIdentifier: link.chain,
    networkName: formatChainName(link.chain),
    chainIconURI: '',
    type: 'evm',
    enabled: true,
    visible: true,
    nativeCurrency: { symbol: 'ETH', decimals: 18 },
    rpcUrl: '',
    blockExplorerUrl: '',
  }
}

/**
 * The payer's seven-step modal (docs/product.md#pay-modal), loaded with React.lazy on the first open: it
 * carries wagmi, its connectors and viem's actions, which the pay page's first paint never waits for.
 * WalletConnect's connector is loaded on top only when the server has a project id.
 */
export default function PayModal(props: PayModalProps) {
  const chainsQuery = useChains()
  const walletConnectQuery = useWalletConnectSetting()
  const chains = useMemo(() => selectOfferedChains(chainsQuery.data?.items ?? []), [chainsQuery.data])
  if (!props.open) return null
  if (chainsQuery.isPending || walletConnectQuery.data === undefined) {
    return (
      <PayDialogShell title={payStepTitles.wallet} onDismiss={() => props.onOpenChange(false)}>
        <div className="grid gap-3" role="status" aria-label="Loading wallets">
          <Skeleton className="h-11 w-full" />
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      </PayDialogShell>
    )
  }
  const configChains = chains.length > 0 ? chains : [getFallbackChain(props.link)]
  return (
    <WagmiProvider config={getPayWagmiConfig(configChains, walletConnectQuery.data)} reconnectOnMount={false}>
      <PayFlow {...props} chains={chains} chainsError={chainsQuery.data?.error ?? null} />
    </WagmiProvider>
  )
}
