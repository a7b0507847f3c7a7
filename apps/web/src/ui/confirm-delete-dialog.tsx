import type { ReactNode } from 'react'
import { Button } from './button'
import { Dialog, DialogClose } from './dialog'

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
  /** The confirming button's word when it is not 'Delete' (e.g. 'Revoke'). */
  confirmLabel?: string
}

/**
 * The shared delete confirmation (docs/product.md#delete-confirm): caller-supplied title and description,
 * Cancel and Delete. An alert dialog: focus starts on Cancel, Escape closes it.
 */
export function ConfirmDeleteDialog({
  open,
  onOpenChange,
  title,
  description,
  onConfirm,
  isDeleting = false,
  confirmLabel = 'Delete',
}: ConfirmDeleteDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      role="alertdialog"
      title={title}
      description={description}
    >
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <DialogClose>
          <Button variant="secondary" disabled={isDeleting}>
            Cancel
          </Button>
        </DialogClose>
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
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  )
}
