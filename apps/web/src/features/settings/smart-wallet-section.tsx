import { isNativeTokenAddress } from '@quicklinks/core/native-token-address'
import { useQueries, useQueryClient } from '@tanstack/react-query'
import { Send } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { Skeleton } from '../../ui/skeleton'
import { WalletAddress } from '../../ui/wallet-address'
import { useAuthModalStore } from '../auth/auth-modal-store'
import { useWalletStatus } from '../auth/wallet-session'
import { formatTokenAmount } from '../pay/pay-amount'
import { type BalanceRecord, getTokenBalance, walletBalancesQueryOptions } from '../pay/wallet-balances'
import { getChainName, selectOfferedTokens } from '../routing/catalogue'
import { useChains, useTokens } from '../routing/use-catalogue'
import { SendDialog } from '../wallet/send-dialog'
import type { SendDialogChain } from '../wallet/send-dialog-state'
import {
  getTransactionUrl,
  type SmartWalletSession,
  smartAccountDeployedQueryOptions,
  useSmartWallet,
} from '../wallet/smart-wallet-session'

/**
 * Settings → Wallet (docs/product.md#smart-wallet): the signed-in user's smart account (one
 * address on every chain), what it holds on each chain, whether it is deployed there yet, and
 * Send. `children` is the rest of the card (the embedded key's export).
 */
export function SmartWalletSection({ children }: { children?: ReactNode }) {
  const smartWallet = useSmartWallet()
  const walletStatus = useWalletStatus()
  const openAuthModal = useAuthModalStore((store) => store.open)
  // Until the SDK has read its stored session, nobody knows yet whether the wallet is connected.
  const isWalletGone = walletStatus !== 'CONNECTED' && walletStatus !== 'INITIALIZING'
  return (
    <Card className="mt-4 p-6">
      <h2 className="font-semibold">Wallet</h2>
      {smartWallet.data !== undefined ? (
        <SmartWalletDetails session={smartWallet.data} />
      ) : isWalletGone ? (
        <div className="mt-1">
          <p className="text-muted text-sm">
            Your wallet session has ended. Sign in again to use your smart account.
          </p>
          <Button variant="secondary" className="mt-4" onClick={() => openAuthModal('stay')}>
            Sign in again
          </Button>
        </div>
      ) : smartWallet.isError ? (
        <p className="mt-1 text-muted text-sm">
          Your smart account could not be loaded. Reload the page to try again.
        </p>
      ) : (
        <div className="mt-4 grid gap-3" aria-busy="true">
          <span className="sr-only">Loading your smart account</span>
          <Skeleton className="h-11 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      )}
      <div className="mt-6 border-border border-t pt-5">{children}</div>
    </Card>
  )
}

function SmartWalletDetails({ session }: { session: SmartWalletSession }) {
  const queryClient = useQueryClient()
  const chainsQuery = useChains()
  const tokensQuery = useTokens()
  const [isSendOpen, setIsSendOpen] = useState(false)
  const catalogueChains = chainsQuery.data?.items ?? []
  const chains = session.chains.map((chain) => {
    const catalogueChain = catalogueChains.find((item) => item.chainId === chain.chainId)
    return {
      ...chain,
      name: getChainName(catalogueChains, chain.chainId),
      networkName: catalogueChain?.networkName,
      nativeSymbol: catalogueChain?.nativeCurrency.symbol ?? 'ETH',
      blockExplorerUrl: catalogueChain?.blockExplorerUrl,
    }
  })
  const balances = useQueries({
    queries: chains.map((chain) =>
      walletBalancesQueryOptions({ chainId: chain.chainId, networkName: chain.networkName }, session.address),
    ),
  })
  const deployed = useQueries({
    queries: chains.map((chain) => smartAccountDeployedQueryOptions(session, chain.chainId)),
  })

  const sendChains: SendDialogChain[] = chains.map((chain, index) => {
    const held = balances[index]?.data
    const tokens = selectOfferedTokens(
      (tokensQuery.data?.items ?? []).filter((token) => token.chainId === chain.chainId),
    )
    return {
      chainId: chain.chainId,
      name: chain.name,
      sponsored: chain.sponsored,
      nativeSymbol: chain.nativeSymbol,
      tokens: tokens.map((token) => ({
        address: token.address,
        symbol: token.symbol,
        decimals: token.decimals,
        balance: held === undefined ? null : getTokenBalance(held, token.address),
      })),
    }
  })

  const refresh = async (chainId: number) => {
    const chain = chains.find((item) => item.chainId === chainId)
    if (chain === undefined) return
    await Promise.all([
      queryClient.refetchQueries({
        queryKey: walletBalancesQueryOptions({ chainId, networkName: chain.networkName }, session.address)
          .queryKey,
      }),
      queryClient.refetchQueries({ queryKey: smartAccountDeployedQueryOptions(session, chainId).queryKey }),
    ])
  }

  return (
    <>
      <p className="mt-1 text-muted text-sm">
        Your smart account has the same address on every chain. Payments to it need no gas from you.
      </p>
      <dl className="mt-4 grid gap-3 text-sm">
        <div className="flex min-h-11 flex-wrap items-center justify-between gap-x-2">
          <dt className="text-muted">Smart account</dt>
          <dd data-testid="smart-account-address" data-address={session.address}>
            <WalletAddress
              address={session.address}
              copyLabel="Copy smart account address"
              className="-mr-2"
            />
          </dd>
        </div>
      </dl>
      <h3 className="mt-4 font-medium text-sm">Balances</h3>
      <ul className="mt-2 grid gap-2">
        {chains.map((chain, index) => (
          <li
            key={chain.chainId}
            aria-label={chain.name}
            className="grid gap-1 rounded-control border border-border px-4 py-3 text-sm"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium">{chain.name}</span>
              {deployed[index]?.data === false ? (
                <span className="rounded-full border border-border px-2 py-0.5 text-muted text-xs">
                  Not deployed yet
                </span>
              ) : null}
            </div>
            <ChainBalances balances={balances[index]?.data} isError={balances[index]?.isError === true} />
          </li>
        ))}
      </ul>
      {deployed.some((query) => query.data === false) ? (
        <p className="mt-2 text-muted text-xs">
          An account that is not deployed yet still receives payments; it deploys with its first send.
        </p>
      ) : null}
      <Button className="mt-4" onClick={() => setIsSendOpen(true)}>
        <Send aria-hidden="true" />
        Send
      </Button>
      <SendDialog
        open={isSendOpen}
        onOpenChange={setIsSendOpen}
        sender={session.address}
        chains={sendChains}
        defaultPolicyId={session.defaultPolicyId}
        send={(input) => session.wallet.send(input)}
        getTransactionUrl={(chainId, hash) =>
          getTransactionUrl({
            chainId,
            hash,
            blockExplorerUrl: chains.find((chain) => chain.chainId === chainId)?.blockExplorerUrl,
            routingProvider: session.routingProvider,
          })
        }
        onSent={refresh}
      />
    </>
  )
}

/** What the account holds on one chain: the tokens with a balance, native first. */
function ChainBalances({
  balances,
  isError,
}: {
  balances: ReadonlyMap<string, BalanceRecord> | undefined
  isError: boolean
}) {
  if (isError) return <span className="text-muted">Balances could not be loaded.</span>
  if (balances === undefined) return <Skeleton className="h-5 w-32" />
  const held = [...balances.values()]
    .filter((entry) => entry.balance > 0n)
    .sort(
      (left, right) =>
        Number(isNativeTokenAddress(right.address)) - Number(isNativeTokenAddress(left.address)),
    )
  if (held.length === 0) return <span className="text-muted">No funds yet</span>
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 tabular-nums">
      {held.map((entry) => (
        <li key={entry.address}>
          {formatTokenAmount(entry.balance, entry.decimals, 6)} {entry.symbol}
        </li>
      ))}
    </ul>
  )
}
