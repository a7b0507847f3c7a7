import { Check, Copy, ReceiptText, Share2, Star, Wallet } from 'lucide-react'
import { Switch } from 'radix-ui'
import { useEffect, useState } from 'react'
import { Link as RouterLink } from 'react-router'
import { getAddress, isAddress } from 'viem'
import { formatChainName, maskMiddle } from '../../lib/format'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { classNames } from '../../ui/class-names'
import { toast } from '../../ui/use-toast'
import { preloadPayModal } from '../pay/lazy-pay-modal'
import type { LinkSync } from './apply-queued-link-writes'
import { copyPayLink, copyToastMs } from './copy-link-field'
import { buildPublicLinkUrl, type Link } from './link'
import { LinkMenu } from './link-menu'
import { LinkSyncStatus } from './link-sync-status'

export type LinkCardProps = {
  link: Link
  onToggle: (field: 'enabled' | 'favorite', value: boolean) => void
  onEdit: () => void
  onDelete: () => void
  onShare: () => void
  /** Opens 'Create invoice' for this link. */
  onCreateInvoice: () => void
  /** Opens the pay modal for this link ('Top Up' opens the same modal the payer sees). */
  onTopUp: () => void
  /** Its writes waiting in the offline queue (docs/product.md#offline-queue); null when none. */
  sync?: LinkSync | null
  /** Replays the offline queue now (offered when a replay failed). */
  onRetrySync?: () => void
  /** Drops this link's queued writes (offered when a replay failed). */
  onDiscardSync?: () => void
}

/**
 * One of the owner's links (docs/product.md#link-card): alias, '/pay/{slug}' with copy, token on chain,
 * the receiver (6…4) with copy, favorite star, enable switch, a menu (Copy Link, Create invoice, Edit, Delete),
 * Share and Top Up. A link with writes in the offline queue says so; one waiting to be created or
 * deleted offers no action but copying until its write is replayed.
 */
export function LinkCard({
  link,
  onToggle,
  onEdit,
  onDelete,
  onShare,
  onCreateInvoice,
  onTopUp,
  sync = null,
  onRetrySync,
  onDiscardSync,
}: LinkCardProps) {
  const isLocked = sync !== null && sync.pending !== 'update'
  const url = buildPublicLinkUrl(link.alias_slug)
  const path = `/pay/${link.alias_slug}`
  const receiver = isAddress(link.receiver_address, { strict: false })
    ? getAddress(link.receiver_address)
    : link.receiver_address
  const [copied, setCopied] = useState<'link' | 'address' | null>(null)
  useEffect(() => {
    if (copied === null) return
    const timeout = setTimeout(() => setCopied(null), copyToastMs)
    return () => clearTimeout(timeout)
  }, [copied])

  const copyLink = async () => {
    if (await copyPayLink(url)) setCopied('link')
  }
  const copyAddress = async () => {
    try {
      await navigator.clipboard.writeText(receiver)
    } catch {
      return
    }
    setCopied('address')
    toast({
      title: 'Address Copied',
      description: 'The receiver address has been copied to your clipboard.',
      duration: copyToastMs,
    })
  }

  return (
    <Card className={classNames('p-4 sm:p-5', !link.enabled && 'bg-subtle', isLocked && 'border-dashed')}>
      <article aria-label={link.alias}>
        <div className="flex items-start gap-1">
          <h3 className="min-w-0 flex-1 break-words pt-2.5 font-semibold text-base leading-snug">
            {link.alias}
          </h3>
          <IconButton
            label={link.favorite ? 'Remove from favorites' : 'Add to favorites'}
            pressed={link.favorite}
            disabled={isLocked}
            onClick={() => onToggle('favorite', !link.favorite)}
          >
            <Star className={link.favorite ? 'fill-current text-[#eab308]' : undefined} />
          </IconButton>
          <LinkMenu
            alias={link.alias}
            onCopy={copyLink}
            onCreateInvoice={onCreateInvoice}
            onEdit={onEdit}
            onDelete={onDelete}
            canChange={!isLocked}
          />
        </div>
        <div className="-mt-1 flex min-w-0 items-center gap-1">
          <span className="truncate font-mono text-muted text-sm" title={path}>
            {path}
          </span>
          <IconButton label={`Copy link ${path}`} onClick={copyLink}>
            {copied === 'link' ? <Check className="text-success" /> : <Copy />}
          </IconButton>
        </div>
        <dl className="mt-1 grid gap-1 text-sm">
          <div className="flex min-h-11 items-center gap-2">
            <dt className="sr-only">Receives</dt>
            <dd className="min-w-0 flex-1 font-medium">
              {link.token_name} on {formatChainName(link.chain)}
            </dd>
            <dd className={classNames('text-xs', link.enabled ? 'text-success' : 'text-muted')}>
              {link.enabled ? 'Enabled' : 'Disabled'}
            </dd>
            <dd className="flex">
              <Switch.Root
                checked={link.enabled}
                disabled={isLocked}
                onCheckedChange={(value) => onToggle('enabled', value)}
                aria-label="Enabled"
                title={
                  link.enabled
                    ? 'Enabled: payers can open this link'
                    : 'Disabled: the pay page says the link is unavailable'
                }
                className={classNames(
                  'relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors disabled:cursor-not-allowed disabled:opacity-55',
                  link.enabled ? 'bg-success' : 'bg-border',
                )}
              >
                <Switch.Thumb className="block size-5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0" />
              </Switch.Root>
            </dd>
          </div>
          <div className="flex items-center gap-1">
            <dt className="text-muted">Receiver</dt>
            <dd className="font-mono" title={receiver}>
              {maskMiddle(receiver)}
            </dd>
            <dd>
              <IconButton label="Copy receiver address" onClick={copyAddress}>
                {copied === 'address' ? <Check className="text-success" /> : <Copy />}
              </IconButton>
            </dd>
          </div>
        </dl>
        <span aria-live="polite" className="sr-only">
          {copied === null ? '' : 'Copied'}
        </span>
        <RouterLink
          to={`/dashboard/payments?link=${encodeURIComponent(link.id)}`}
          aria-label={`Payments to ${link.alias}`}
          className="mt-1 inline-flex min-h-11 items-center gap-2 text-accent text-sm underline-offset-2 hover:underline"
        >
          <ReceiptText aria-hidden="true" className="size-4" />
          Payments
        </RouterLink>
        {sync === null ? null : (
          <LinkSyncStatus sync={sync} onRetry={onRetrySync} onDiscard={onDiscardSync} />
        )}
        <div className="mt-3 grid grid-cols-2 gap-3">
          <Button variant="secondary" onClick={onShare} disabled={isLocked}>
            <Share2 aria-hidden="true" />
            Share
          </Button>
          <Button variant="secondary" onClick={onTopUp} onPointerEnter={preloadPayModal} disabled={isLocked}>
            <Wallet aria-hidden="true" />
            Top Up
          </Button>
        </div>
      </article>
    </Card>
  )
}

function IconButton({
  label,
  onClick,
  pressed,
  disabled = false,
  children,
}: {
  label: string
  onClick: () => void
  pressed?: boolean
  disabled?: boolean
  children: React.ReactNode
}) {
  return (
    <button
      type="button"
      aria-label={label}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      className="inline-flex size-11 shrink-0 items-center justify-center rounded-control text-muted hover:bg-subtle hover:text-fg disabled:cursor-not-allowed disabled:opacity-55 [&_svg]:size-[18px]"
    >
      {children}
    </button>
  )
}
