import { AlertDialog } from 'radix-ui'
import type { ReactNode } from 'react'
import { Button } from './button'

export type ConfirmDeleteDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** e.g. 'Delete Link' */
  title: ReactNode
  /** e.g. 'Are you sure you want to delete this link? This action cannot be undone.' */
  description: ReactNode
  /** Runs on Delete; the dialog closes when it settles (the caller toasts any failure). */
  onConfirm: () => void | Promise<void>
  /** Disables both buttons and shows a spinner on Delete while the caller deletes. */
  isDeleting?: boolean
}

/**
 * The shared delete confirmation (SPEC §2): caller-supplied title and description, Cancel and
 * Delete. Radix AlertDialog traps focus, starts on Cancel and closes on Escape.
 */
export function ConfirmDeleteDialog({
  open,
  onOpenChange,
  title,
  description,
  onConfirm,
  isDeleting = false,
}: ConfirmDeleteDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-overlay data-[state=open]:animate-fade-in" />
        <AlertDialog.Content
          className={
            'fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 ' +
            'rounded-card border border-border bg-surface p-6 shadow-pop data-[state=open]:animate-pop-in'
          }
        >
          <AlertDialog.Title className="font-semibold text-lg">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-muted text-sm">{description}</AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={isDeleting}>
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <Button
              variant="danger"
              isBusy={isDeleting}
              onClick={async () => {
                try {
                  await onConfirm()
                } catch (error) {
                  console.error('Delete failed', error)
                } finally {
                  onOpenChange(false)
                }
              }}
            >
              Delete
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}
