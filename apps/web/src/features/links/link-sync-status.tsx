import { CloudOff, TriangleAlert } from 'lucide-react'
import { Button } from '../../ui/button'
import type { LinkSync } from './apply-queued-link-writes'

const syncLabels: Record<LinkSync['pending'], { title: string; detail: string }> = {
  create: { title: 'Pending creation', detail: 'Saved on this device; created when you are back online.' },
  update: { title: 'Pending sync', detail: 'Saved on this device; synced when you are back online.' },
  delete: { title: 'Pending deletion', detail: 'Deleted when you are back online.' },
}

/**
 * The card's line about its queued writes: pending (what will happen once online), or, when a
 * replay failed, why, with 'Sync now' and 'Discard'. The write stays queued until one of them
 * (or the next time the browser comes online) settles it.
 */
export function LinkSyncStatus({
  sync,
  onRetry,
  onDiscard,
}: {
  sync: LinkSync
  onRetry: (() => void) | undefined
  onDiscard: (() => void) | undefined
}) {
  const labels = syncLabels[sync.pending]
  if (sync.error === null) {
    return (
      <p role="status" className="mt-2 flex items-start gap-2 text-muted text-sm">
        <CloudOff aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          <span className="font-medium text-fg">{labels.title}</span>. {labels.detail}
        </span>
      </p>
    )
  }
  return (
    <div role="alert" className="mt-2 rounded-control border border-danger p-3 text-sm">
      <p className="flex items-start gap-2 text-danger">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          <span className="block font-medium">Not synced: {sync.error}</span>
          <span className="block text-fg">
            {labels.title}: the change stays saved on this device and is tried again when you are back online.
          </span>
        </span>
      </p>
      <div className="mt-2 flex gap-2">
        {onRetry === undefined ? null : (
          <Button variant="secondary" size="compact" onClick={onRetry}>
            Sync now
          </Button>
        )}
        {onDiscard === undefined ? null : (
          <Button variant="ghost" size="compact" onClick={onDiscard}>
            Discard
          </Button>
        )}
      </div>
    </div>
  )
}
