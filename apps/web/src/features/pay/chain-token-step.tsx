import type { RoutingChain, RoutingToken } from '@quicklinks/core/api/routing'
import { Check } from 'lucide-react'
import { Tabs } from 'radix-ui'
import type { ReactNode } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { Skeleton } from '../../ui/skeleton'
import { formatTokenAmount, formatUsd } from './pay-amount'
import { PayLogo } from './pay-logo'

export type ChainTokenStepProps = {
  chains: readonly RoutingChain[]
  /** The offered tokens of the selected chain. */
  tokens: readonly RoutingToken[]
  isLoading: boolean
  error: string | null
  /** Balance of a token (smallest unit) by lowercase address; null while loading. */
  getBalance: (token: RoutingToken) => bigint | null
  /** The native token's USD price of a chain, or null ('N/A'). */
  getNativeUsdPrice: (chain: RoutingChain) => number | null
  /** The payer's holdings on the selected chain in USD, or null while unknown. */
  totalUsd: number | null
  tab: 'chains' | 'tokens'
  selectedChainId: number | null
  selectedTokenAddress: string | null
  /** The chain id the wallet is switching to, while it does. */
  switchingChainId: number | null
  onTabChange: (tab: 'chains' | 'tokens') => void
  onSelectChain: (chain: RoutingChain) => void
  onSelectToken: (token: RoutingToken) => void
  onContinue: () => void
}

const rowClassName =
  'flex min-h-16 w-full items-center gap-3 rounded-control border px-3 py-2 text-left transition-colors hover:bg-subtle'
const tabClassName =
  'flex min-h-11 flex-1 items-center justify-center rounded-control font-medium text-muted text-sm data-[state=active]:bg-surface data-[state=active]:text-fg data-[state=active]:shadow-sm'

/** Step 1 'Select Chain & Token' (docs/product.md#step-chain-token). */
export function ChainTokenStep(props: ChainTokenStepProps) {
  const { chains, tokens, tab, selectedChainId, selectedTokenAddress } = props
  const canContinue = selectedChainId !== null && selectedTokenAddress !== null
  const continueLabel =
    selectedChainId === null ? 'Select chain' : selectedTokenAddress === null ? 'Select token' : 'Continue'
  return (
    <div className="grid gap-4">
      <div className="flex items-baseline justify-between rounded-control bg-subtle px-4 py-3">
        <span className="text-muted text-sm">Wallet balance</span>
        <span className="font-semibold text-lg tabular-nums">
          {props.totalUsd === null ? '—' : formatUsd(props.totalUsd)}
        </span>
      </div>
      <Tabs.Root
        value={tab}
        onValueChange={(value) => props.onTabChange(value === 'tokens' ? 'tokens' : 'chains')}
      >
        <Tabs.List aria-label="Chain and token" className="flex gap-1 rounded-control bg-subtle p-1">
          <Tabs.Trigger value="chains" className={tabClassName}>
            Chains
          </Tabs.Trigger>
          <Tabs.Trigger value="tokens" className={tabClassName}>
            Tokens
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="chains" className="mt-3 outline-none">
          {props.error === null ? null : (
            <p role="alert" className="mb-2 text-danger text-sm">
              {props.error}
            </p>
          )}
          {props.isLoading ? (
            <RowSkeletons />
          ) : (
            <ul className="grid gap-2">
              {chains.map((chain) => {
                const price = props.getNativeUsdPrice(chain)
                const isSelected = chain.chainId === selectedChainId
                return (
                  <li key={chain.chainId}>
                    <SelectableRow isSelected={isSelected} onSelect={() => props.onSelectChain(chain)}>
                      <PayLogo src={chain.chainIconURI} label={chain.networkName} />
                      <span className="min-w-0 flex-1">
                        <span className="block truncate font-medium">{chain.networkName}</span>
                        <span className="flex gap-2 text-muted text-xs">
                          <span>Chain ID: {chain.chainId}</span>
                          <span>{chain.type.toUpperCase()}</span>
                        </span>
                      </span>
                      <span className="text-right text-sm tabular-nums">
                        <span className="block">{price === null ? 'N/A' : formatUsd(price)}</span>
                        <span className="block text-muted text-xs">0.00%</span>
                      </span>
                      {props.switchingChainId === chain.chainId ? (
                        <span className="sr-only">Switching…</span>
                      ) : null}
                    </SelectableRow>
                  </li>
                )
              })}
            </ul>
          )}
        </Tabs.Content>
        <Tabs.Content value="tokens" className="mt-3 outline-none">
          {selectedChainId === null ? (
            <p className="rounded-control bg-subtle px-3 py-3 text-muted text-sm">Select a chain first.</p>
          ) : props.isLoading ? (
            <RowSkeletons />
          ) : tokens.length === 0 ? (
            <p className="rounded-control bg-subtle px-3 py-3 text-muted text-sm">No tokens on this chain.</p>
          ) : (
            <ul className="grid gap-2">
              {tokens.map((token) => {
                const balance = props.getBalance(token)
                const isSelected = token.address.toLowerCase() === selectedTokenAddress?.toLowerCase()
                return (
                  <li key={token.address}>
                    <SelectableRow isSelected={isSelected} onSelect={() => props.onSelectToken(token)}>
                      <PayLogo src={token.logoURI} label={token.symbol} />
                      <span className="min-w-0 flex-1">
                        <span className="block truncate font-medium">{token.symbol}</span>
                        <span className="block truncate text-muted text-xs">
                          {token.name.length > 0 ? token.name : 'No name'} · {token.chainId}
                        </span>
                      </span>
                      <span className="text-right text-sm tabular-nums">
                        <span className="block">
                          {token.usdPrice == null ? 'No price' : formatUsd(token.usdPrice)}
                        </span>
                        <span className="block text-muted text-xs">
                          Balance:{' '}
                          {balance === null ? '…' : formatTokenAmount(balance, token.decimals, 4, true)}
                        </span>
                      </span>
                      {isSelected ? <Check aria-hidden="true" className="size-4 text-accent" /> : null}
                    </SelectableRow>
                  </li>
                )
              })}
            </ul>
          )}
        </Tabs.Content>
      </Tabs.Root>
      <Button size="lg" disabled={!canContinue} onClick={props.onContinue}>
        {continueLabel}
      </Button>
    </div>
  )
}

/** A chain or token row: one button that shows whether it is the chosen one. */
function SelectableRow(props: { isSelected: boolean; onSelect: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={props.isSelected}
      className={classNames(
        rowClassName,
        props.isSelected ? 'border-accent bg-accent-soft' : 'border-border',
      )}
      onClick={props.onSelect}
    >
      {props.children}
    </button>
  )
}

function RowSkeletons() {
  return (
    <ul aria-label="Loading" className="grid gap-2">
      {[0, 1, 2].map((row) => (
        <li key={row}>
          <Skeleton className="h-16 w-full" />
        </li>
      ))}
    </ul>
  )
}
