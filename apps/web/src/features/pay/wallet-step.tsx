import { ChevronDown, Search, ShieldCheck } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { Spinner } from '../../ui/spinner'
import { PayLogo } from './pay-logo'
import { listPopularWallets, type WalletCatalogueEntry } from './wallet-catalogue'

/** A wallet the browser announced (EIP-6963) or injected. */
export type DetectedWallet = {
  id: string
  name: string
  icon?: string | undefined
  rdns?: string | undefined
}

export type WalletStepProps = {
  detected: readonly DetectedWallet[]
  /** The id of the wallet being connected, or 'walletconnect'. */
  pendingId: string | null
  /** Why 'Continue with WalletConnect' is off (shown under it), or null when it is on. */
  walletConnectDisabledReason: string | null
  onConnectDetected: (wallet: DetectedWallet) => void
  onSelectCatalogue: (entry: WalletCatalogueEntry) => void
  onWalletConnect: () => void
}

const rowClassName =
  'flex min-h-14 w-full items-center gap-3 rounded-control border border-border bg-surface px-3 py-2 text-left transition-colors hover:bg-subtle disabled:cursor-not-allowed disabled:opacity-55'

/**
 * Step 0 'Select Your Wallet' (docs/product.md#step-wallet): detected wallets, the catalogue,
 * WalletConnect.
 */
export function WalletStep({
  detected,
  pendingId,
  walletConnectDisabledReason,
  onConnectDetected,
  onSelectCatalogue,
  onWalletConnect,
}: WalletStepProps) {
  const [search, setSearch] = useState('')
  const [isPopularOpen, setPopularOpen] = useState(true)
  const popularId = useId()
  const popular = listPopularWallets(search)
  const query = search.trim().toLowerCase()
  const shownDetected = detected.filter(
    (wallet) => query.length === 0 || wallet.name.toLowerCase().includes(query),
  )
  const isBusy = pendingId !== null
  const hasWalletConnect = walletConnectDisabledReason === null

  return (
    <div className="grid gap-5">
      <p className="flex items-start gap-2 rounded-control bg-accent-soft px-3 py-2.5 text-accent text-sm">
        <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        All tokens on all EVM networks are accepted.
      </p>
      <label className="relative block">
        <span className="sr-only">Search wallets…</span>
        <Search aria-hidden="true" className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted" />
        <input
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Search wallets…"
          className="min-h-11 w-full rounded-control border border-border bg-surface py-2 pr-3 pl-9 text-sm outline-none placeholder:text-muted focus-visible:border-accent"
        />
      </label>
      <section aria-labelledby={`${popularId}-detected`}>
        <h3
          id={`${popularId}-detected`}
          className="mb-2 font-medium text-muted text-xs uppercase tracking-wide"
        >
          Detected Wallets
        </h3>
        {shownDetected.length === 0 ? (
          <p className="rounded-control bg-subtle px-3 py-3 text-muted text-sm">
            No browser wallets detected.
          </p>
        ) : (
          <ul className="grid gap-2">
            {shownDetected.map((wallet) => (
              <li key={wallet.id}>
                <button
                  type="button"
                  className={rowClassName}
                  disabled={isBusy}
                  onClick={() => onConnectDetected(wallet)}
                >
                  <PayLogo src={wallet.icon} label={wallet.name} />
                  <span className="min-w-0 flex-1 truncate font-medium">{wallet.name}</span>
                  {pendingId === wallet.id ? (
                    <span className="flex items-center gap-1.5 text-muted text-xs">
                      <Spinner className="size-4" />
                      Connecting…
                    </span>
                  ) : (
                    <span className="rounded-full bg-success-soft px-2 py-0.5 font-medium text-success text-xs">
                      Detected
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h3>
          <button
            type="button"
            aria-expanded={isPopularOpen}
            aria-controls={popularId}
            onClick={() => setPopularOpen((open) => !open)}
            className="flex min-h-11 w-full items-center justify-between font-medium text-muted text-xs uppercase tracking-wide"
          >
            Popular Wallets
            <ChevronDown
              aria-hidden="true"
              className={classNames('size-4 transition-transform', isPopularOpen && 'rotate-180')}
            />
          </button>
        </h3>
        {isPopularOpen ? (
          <ul id={popularId} className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-2">
            {popular.map((entry) => (
              <li key={entry.id}>
                <button
                  type="button"
                  className={rowClassName}
                  disabled={isBusy}
                  onClick={() => onSelectCatalogue(entry)}
                >
                  <PayLogo
                    label={entry.logo.initials}
                    background={entry.logo.background}
                    foreground={entry.logo.foreground}
                  />
                  <span className="min-w-0 flex-1 truncate font-medium text-sm">{entry.name}</span>
                  {pendingId === entry.id ? <Spinner className="size-4 text-muted" /> : null}
                </button>
              </li>
            ))}
            {popular.length === 0 ? <li className="text-muted text-sm">No wallet matches.</li> : null}
          </ul>
        ) : null}
      </section>
      <div className="grid gap-1.5">
        <Button
          variant="secondary"
          size="lg"
          onClick={onWalletConnect}
          isBusy={pendingId === 'walletconnect'}
          disabled={!hasWalletConnect || (isBusy && pendingId !== 'walletconnect')}
          aria-describedby={hasWalletConnect ? undefined : `${popularId}-wc-note`}
        >
          {pendingId === 'walletconnect' ? 'Connecting…' : 'Continue with WalletConnect'}
        </Button>
        {hasWalletConnect ? null : (
          <p id={`${popularId}-wc-note`} className="text-center text-muted text-xs">
            {walletConnectDisabledReason}
          </p>
        )}
      </div>
      <p aria-live="polite" className="sr-only">
        {isBusy ? 'Connecting…' : ''}
      </p>
    </div>
  )
}
