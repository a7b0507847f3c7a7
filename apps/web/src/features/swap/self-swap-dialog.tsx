import type { RoutingChain } from '@quicklinks/core/api/routing'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import type { LocalAccount } from 'viem'
import { type Config, WagmiProvider } from 'wagmi'
import { connect } from 'wagmi/actions'
import { Skeleton } from '../../ui/skeleton'
import { useAuthModalStore } from '../auth/auth-modal-store'
import { getWalletAccount, useWalletStatus } from '../auth/wallet-session'
import { PayDialogShell } from '../pay/pay-dialog-shell'
import { selectOfferedChains } from '../routing/catalogue'
import { useChains } from '../routing/use-catalogue'
import { createEmbeddedWalletConfig } from './embedded-wallet-connector'
import { SessionEndedPanel } from './session-ended-panel'
import { SwapFlow } from './swap-flow'
import { swapStepTitles } from './swap-state'

export type SelfSwapDialogProps = { onClose: () => void }

/** The embedded wallet's wagmi config, connected to its one account before any step runs. */
function useConnectedConfig(
  chains: readonly RoutingChain[],
  account: LocalAccount | undefined,
): Config | null {
  const config = useMemo(
    () => (account === undefined || chains.length === 0 ? null : createEmbeddedWalletConfig(chains, account)),
    [chains, account],
  )
  const [connected, setConnected] = useState<Config | null>(null)
  useEffect(() => {
    if (config === null) return
    const connector = config.connectors[0]
    if (connector === undefined) return
    let isCurrent = true
    connect(config, { connector }).then(
      () => {
        if (isCurrent) setConnected(config)
      },
      (error: unknown) => console.warn('Embedded wallet connect failed', error),
    )
    return () => {
      isCurrent = false
    }
  }, [config])
  return connected === config ? connected : null
}

/**
 * 'Self Swap' (docs/product.md#self-swap): the signed-in payee swaps tokens in their own embedded
 * wallet through the routing provider, with the pay modal's confirm and progress steps. Loaded with
 * React.lazy on the first open (wagmi and viem's actions). Without a live wallet session it says so
 * and offers to sign in again (the auth modal's 'stay' purpose keeps the dashboard).
 */
export default function SelfSwapDialog({ onClose }: SelfSwapDialogProps) {
  const walletStatus = useWalletStatus()
  const isSessionLive = walletStatus === 'CONNECTED'
  const openAuthModal = useAuthModalStore((store) => store.open)
  const chainsQuery = useChains()
  const chains = useMemo(() => selectOfferedChains(chainsQuery.data?.items ?? []), [chainsQuery.data])
  const accountQuery = useQuery({
    queryKey: ['embedded-wallet-account'],
    queryFn: getWalletAccount,
    enabled: isSessionLive,
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
  const account = accountQuery.data
  const config = useConnectedConfig(chains, account)
  const signInAgain = () => {
    onClose()
    openAuthModal('stay')
  }

  if (config !== null && account !== undefined) {
    return (
      <WagmiProvider config={config} reconnectOnMount={false}>
        <SwapFlow
          address={account.address}
          chains={chains}
          chainsError={chainsQuery.data?.error ?? null}
          isSessionLive={isSessionLive}
          onClose={onClose}
          onSignInAgain={signInAgain}
        />
      </WagmiProvider>
    )
  }
  const hasEnded = walletStatus !== 'INITIALIZING' && !isSessionLive
  const error =
    chainsQuery.data?.error ?? (accountQuery.isError ? 'Could not open your wallet. Try again.' : null)
  return (
    <PayDialogShell title={swapStepTitles.source} onDismiss={onClose} onClose={onClose}>
      {hasEnded ? (
        <SessionEndedPanel onSignInAgain={signInAgain} />
      ) : error !== null || (chainsQuery.isSuccess && chains.length === 0) ? (
        <p role="alert" className="text-danger text-sm">
          {error ?? 'No chains are available.'}
        </p>
      ) : (
        <div className="grid gap-3" role="status" aria-label="Opening your wallet">
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-11 w-full" />
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      )}
    </PayDialogShell>
  )
}
