import { ArrowLeft, X } from 'lucide-react'
import { type ReactNode, useEffect, useRef } from 'react'
import { Dialog, DialogTitle } from '../../ui/dialog'
import { OfflineNotice, offlinePaymentMessage } from '../../ui/offline-notice'

export type PayDialogShellProps = {
  title: string
  /** Escape and a click outside: the same as Back (docs/product.md#pay-modal-rules). */
  onDismiss: () => void
  onBack?: (() => void) | undefined
  onClose?: (() => void) | undefined
  children: ReactNode
}

/**
 * The pay modal's dialog: the step title between Back and Close (each left out where the step has
 * none), and the step below. Each new step moves focus to its title. Offline, a notice above the
 * step says a payment needs a connection (the route and receipt calls are never queued).
 */
export function PayDialogShell({ title, onDismiss, onBack, onClose, children }: PayDialogShellProps) {
  // Each new step moves focus to its title, so a screen reader hears where the payer is and the
  // focus never falls back to the dialog itself when the pressed button leaves with its step.
  const headerRef = useRef<HTMLDivElement>(null)
  const previousTitle = useRef(title)
  useEffect(() => {
    if (previousTitle.current === title) return
    previousTitle.current = title
    headerRef.current?.querySelector<HTMLElement>('h2')?.focus()
  }, [title])
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onDismiss()
      }}
      hasCloseButton={false}
      isDescribed={false}
    >
      <div ref={headerRef} className="-mt-2 mb-4 flex min-h-11 items-center gap-1">
        <HeaderButton label="Back" onClick={onBack} edgeClassName="-ml-2">
          <ArrowLeft aria-hidden="true" className="size-5" />
        </HeaderButton>
        <DialogTitle
          tabIndex={-1}
          className="min-w-0 flex-1 truncate text-center font-semibold text-lg tracking-tight outline-none"
        >
          {title}
        </DialogTitle>
        <HeaderButton label="Close" onClick={onClose} edgeClassName="-mr-2">
          <X aria-hidden="true" className="size-5" />
        </HeaderButton>
      </div>
      <OfflineNotice>{offlinePaymentMessage}</OfflineNotice>
      {children}
    </Dialog>
  )
}

/** A 44 px header icon button, or a same-sized spacer when there is no action (the title stays centred). */
function HeaderButton({
  label,
  onClick,
  edgeClassName,
  children,
}: {
  label: string
  onClick: (() => void) | undefined
  /** Pulls the button to the dialog's edge: '-ml-2' on the left, '-mr-2' on the right. */
  edgeClassName: string
  children: ReactNode
}) {
  if (onClick === undefined) return <span className="size-11 shrink-0" aria-hidden="true" />
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      className={`${edgeClassName} inline-flex size-11 shrink-0 items-center justify-center rounded-control text-muted hover:bg-subtle hover:text-fg`}
    >
      {children}
    </button>
  )
}
