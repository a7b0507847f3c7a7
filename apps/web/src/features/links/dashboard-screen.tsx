import { AppError } from '@quicklinks/core/app-error'
import { ArrowLeftRight, CloudOff, Link2, Plus, RotateCw } from 'lucide-react'
import { useCallback, useReducer, useState } from 'react'
import { useIsOnline } from '../../lib/use-is-online'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { ConfirmDeleteDialog } from '../../ui/confirm-delete-dialog'
import { Skeleton } from '../../ui/skeleton'
import { toast } from '../../ui/use-toast'
import { type SessionUser, useSession } from '../auth/session'
import { CreateInvoiceDialog } from '../invoices/create-invoice-dialog'
import { LazyPayModal } from '../pay/lazy-pay-modal'
import { LazySelfSwapDialog } from '../swap/lazy-self-swap-dialog'
import { DashboardTabs } from './dashboard-tabs'
import { type Link, readLinkAmount } from './link'
import { LinkCard } from './link-card'
import { LinkManagerModal } from './link-manager-modal'
import { initialLinkModalState, reduceLinkModal } from './link-modal-state'
import { useDeleteLink, useLinks, useToggleLink } from './link-queries'
import { useLinkStore } from './link-store'
import { ShareLinkDialog } from './share-link-dialog'
import { useQueuedLinkWrites } from './use-queued-link-writes'

/** The signed-in payee's id (the address when the session has no id). */
function getOwnerId(user: SessionUser | null): string | null {
  if (user === null) return null
  if (typeof user.id === 'string') return user.id
  return typeof user.address === 'string' ? user.address.toLowerCase() : null
}

/** A fresh key per draft: a double submit or a retry of the same draft never makes a second link. */
function createIdempotencyKey(): string {
  return crypto.randomUUID()
}

/**
 * /dashboard, the Links tab: the owner's links (painted from 'link-storage' at once, then fetched,
 * with the writes waiting in the offline queue laid over them), skeleton rows on a first load, an
 * empty state inviting the first link, and the link manager.
 */
export function DashboardScreen() {
  const { user } = useSession()
  const ownerId = getOwnerId(user)
  const query = useLinks(ownerId)
  const storedLinks = useLinkStore((state) => state.links)
  const storedOwnerId = useLinkStore((state) => state.ownerId)
  const links = ownerId !== null && storedOwnerId === ownerId ? storedLinks : []
  const storeError = useLinkStore((state) => state.error)
  const toggle = useToggleLink()
  const remove = useDeleteLink()
  const [modal, dispatch] = useReducer(reduceLinkModal, initialLinkModalState)
  const [deleting, setDeleting] = useState<Link | null>(null)
  const [sharing, setSharing] = useState<Link | null>(null)
  const [toppingUp, setToppingUp] = useState<Link | null>(null)
  const [invoicing, setInvoicing] = useState<Link | null>(null)
  const [isSwapping, setSwapping] = useState(false)
  const openCreate = useCallback(
    () => dispatch({ type: 'openCreate', idempotencyKey: createIdempotencyKey() }),
    [],
  )

  const queued = useQueuedLinkWrites(query.data ?? links)
  const shown = queued.shown
  const isOnline = useIsOnline()
  const isFirstLoad = query.isPending && shown.length === 0

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-10">
      <DashboardTabs />
      <div className="flex items-end justify-between gap-4">
        <div>
          <h1 className="font-semibold text-2xl tracking-tight">Links</h1>
          <p className="mt-1 text-muted text-sm">Your payment links.</p>
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setSwapping(true)}>
            <ArrowLeftRight aria-hidden="true" />
            Self Swap
          </Button>
          {shown.length > 0 ? (
            <Button onClick={openCreate}>
              <Plus aria-hidden="true" />
              New link
            </Button>
          ) : null}
        </div>
      </div>
      {isOnline ? null : (
        <p role="status" className="mt-4 flex items-start gap-2 text-muted text-sm">
          <CloudOff aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          You are offline. Changes to your links are saved on this device and synced when you are back online.
        </p>
      )}
      {queued.unmatchedFailures.length === 0 ? null : (
        <div role="alert" className="mt-4 flex flex-wrap items-center gap-3 text-danger text-sm">
          <span>
            {queued.unmatchedFailures.length === 1
              ? 'A change saved offline could not be synced'
              : `${queued.unmatchedFailures.length} changes saved offline could not be synced`}
            : {queued.unmatchedFailures[0]?.request.lastError}
          </span>
          <Button
            variant="ghost"
            size="compact"
            onClick={() => queued.discard(queued.unmatchedFailures.map((entry) => entry.key))}
          >
            Discard
          </Button>
        </div>
      )}
      {storeError === null ? null : (
        <p role="alert" className="mt-4 flex items-center gap-3 text-danger text-sm">
          {storeError}
          {query.isError ? (
            <Button
              variant="ghost"
              size="compact"
              onClick={() => void query.refetch()}
              isBusy={query.isFetching}
            >
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          ) : null}
        </p>
      )}
      {isFirstLoad ? (
        <ul aria-label="Loading links" className="mt-6 grid gap-4">
          {[0, 1, 2].map((row) => (
            <li key={row}>
              <LinkCardSkeleton />
            </li>
          ))}
        </ul>
      ) : shown.length === 0 && !query.isError ? (
        <EmptyState onCreate={openCreate} />
      ) : (
        <ul aria-label="Your links" className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2">
          {shown.map(({ link, sync }) => (
            <li key={link.id} className="min-w-0">
              <LinkCard
                link={link}
                sync={sync}
                onRetrySync={queued.retry}
                onDiscardSync={() => queued.discard(sync?.keys ?? [])}
                onToggle={(field, value) => toggle.mutate({ link, field, value })}
                onEdit={() => dispatch({ type: 'openEdit', link })}
                onDelete={() => setDeleting(link)}
                onShare={() => setSharing(link)}
                onCreateInvoice={() => setInvoicing(link)}
                onTopUp={() => setToppingUp(link)}
              />
            </li>
          ))}
        </ul>
      )}
      <LinkManagerModal state={modal} dispatch={dispatch} />
      {sharing === null ? null : (
        <ShareLinkDialog
          link={sharing}
          open
          onOpenChange={(open) => {
            if (!open) setSharing(null)
          }}
        />
      )}
      {invoicing === null ? null : (
        <CreateInvoiceDialog
          link={{ ...invoicing, amount: readLinkAmount(invoicing) }}
          open
          onOpenChange={(open) => {
            if (!open) setInvoicing(null)
          }}
        />
      )}
      {toppingUp === null ? null : (
        <LazyPayModal
          link={{
            id: toppingUp.id,
            alias: toppingUp.alias,
            receiver_address: toppingUp.receiver_address,
            chain: toppingUp.chain,
            chain_id: toppingUp.chain_id,
            token_name: toppingUp.token_name,
            token_address: toppingUp.token_address ?? null,
          }}
          open
          onOpenChange={(open) => {
            if (!open) setToppingUp(null)
          }}
        />
      )}
      <LazySelfSwapDialog open={isSwapping} onClose={() => setSwapping(false)} />
      <ConfirmDeleteDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null)
        }}
        title="Delete Link"
        description="Are you sure you want to delete this link? This action cannot be undone."
        isDeleting={remove.isPending}
        onConfirm={async () => {
          if (deleting === null) return
          try {
            await remove.mutateAsync(deleting.id)
          } catch (error) {
            // The server's message, else 'Delete failed ({status})' (docs/product.md#errors-links).
            const description = error instanceof AppError ? error.userMessage : 'Delete failed'
            toast({ title: 'Link not deleted', description, variant: 'destructive' })
          }
        }}
      />
    </div>
  )
}

function EmptyState({ onCreate }: { onCreate: () => void }) {
  return (
    <Card className="mt-6 flex flex-col items-center px-6 py-12 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent">
        <Link2 aria-hidden="true" className="size-6" />
      </span>
      <h2 className="mt-4 font-semibold">Create your first payment link</h2>
      <p className="mt-1 max-w-sm text-muted text-sm">
        Share one link and get paid in the token you want, on the chain you want. Payers can use any token on
        any network.
      </p>
      <Button className="mt-6" onClick={onCreate}>
        <Plus aria-hidden="true" />
        New link
      </Button>
    </Card>
  )
}

function LinkCardSkeleton() {
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex items-start gap-3">
        <div className="grid flex-1 gap-2">
          <Skeleton className="h-5 w-40" />
          <Skeleton className="h-4 w-28" />
        </div>
        <Skeleton className="h-6 w-11 rounded-full" />
      </div>
      <Skeleton className="mt-4 h-4 w-32" />
      <Skeleton className="mt-2 h-4 w-44" />
      <div className="mt-4 grid grid-cols-2 gap-3">
        <Skeleton className="h-11" />
        <Skeleton className="h-11" />
      </div>
    </Card>
  )
}
