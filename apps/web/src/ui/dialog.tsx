import { X } from 'lucide-react'
import { AlertDialog, Dialog as RadixDialog } from 'radix-ui'
import { createContext, type HTMLAttributes, type ReactNode, useContext } from 'react'
import { classNames } from './class-names'

/** 'alertdialog' asks for a decision: no close on a click outside, focus starts on `DialogClose`. */
export type DialogRole = 'dialog' | 'alertdialog'

const radixParts = {
  dialog: {
    Root: RadixDialog.Root,
    Portal: RadixDialog.Portal,
    Overlay: RadixDialog.Overlay,
    Content: RadixDialog.Content,
    Title: RadixDialog.Title,
    Description: RadixDialog.Description,
    Close: RadixDialog.Close,
  },
  alertdialog: {
    Root: AlertDialog.Root,
    Portal: AlertDialog.Portal,
    Overlay: AlertDialog.Overlay,
    Content: AlertDialog.Content,
    Title: AlertDialog.Title,
    Description: AlertDialog.Description,
    Close: AlertDialog.Cancel,
  },
} as const

// Radix scopes its Dialog and AlertDialog contexts apart, so the parts inside must match the root.
const DialogRoleContext = createContext<DialogRole>('dialog')

const sizeClassNames = {
  /** Forms with one column of fields, such as sign-in. */
  sm: 'sm:max-w-sm sm:p-8',
  md: 'sm:max-w-md',
} as const

export type DialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Default 'dialog'. */
  role?: DialogRole
  /** The heading that names the dialog; omit it when the children render their own `DialogTitle`. */
  title?: ReactNode
  /** Shown under the title; omit it when the children render their own `DialogDescription`. */
  description?: ReactNode
  /**
   * False when nothing in the dialog is a `DialogDescription`, so the dialog is not described by an
   * element that does not exist. Default true.
   */
  isDescribed?: boolean
  /** The X in the top corner. Default true for 'dialog', false for 'alertdialog' (it has Cancel). */
  hasCloseButton?: boolean
  /** The width above 640 px. Default 'md'. */
  size?: keyof typeof sizeClassNames
  /** Radix's hook to move the first focus elsewhere (call `event.preventDefault()` and focus). */
  onOpenAutoFocus?: (event: Event) => void
  children?: ReactNode
}

/**
 * The one modal shell (docs/product.md#dialogs: a bottom sheet filling the width below 640 px, centred above,
 * at most 90 % of the viewport high with its own scroll). Radix traps focus, restores it on close and closes
 * on Escape. Never fetches; the caller owns `open` and what is inside.
 */
export function Dialog({
  open,
  onOpenChange,
  role = 'dialog',
  title,
  description,
  isDescribed = true,
  hasCloseButton = role === 'dialog',
  size = 'md',
  onOpenAutoFocus,
  children,
}: DialogProps) {
  const Parts = radixParts[role]
  return (
    <DialogRoleContext.Provider value={role}>
      <Parts.Root open={open} onOpenChange={onOpenChange}>
        <Parts.Portal>
          <Parts.Overlay className="fixed inset-0 z-50 bg-overlay data-[state=open]:animate-fade-in" />
          <Parts.Content
            {...(isDescribed ? {} : { 'aria-describedby': undefined })}
            onOpenAutoFocus={onOpenAutoFocus}
            className={classNames(
              'fixed inset-x-0 bottom-0 z-50 max-h-[90dvh] overflow-y-auto rounded-t-card border border-border bg-surface p-6 pb-[max(1.5rem,env(safe-area-inset-bottom))] shadow-pop',
              'data-[state=open]:animate-pop-in sm:inset-x-auto sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:w-full sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-card',
              sizeClassNames[size],
            )}
          >
            {title === undefined ? null : (
              <DialogTitle className={hasCloseButton ? undefined : defaultTitleClassName}>
                {title}
              </DialogTitle>
            )}
            {description === undefined ? null : <DialogDescription>{description}</DialogDescription>}
            {children}
            {hasCloseButton ? (
              <DialogClose>
                <button
                  type="button"
                  aria-label="Close"
                  className="absolute top-2 right-2 inline-flex size-11 items-center justify-center rounded-control text-muted hover:bg-subtle hover:text-fg"
                >
                  <X aria-hidden="true" className="size-5" />
                </button>
              </DialogClose>
            ) : null}
          </Parts.Content>
        </Parts.Portal>
      </Parts.Root>
    </DialogRoleContext.Provider>
  )
}

const defaultTitleClassName = 'font-semibold text-xl tracking-tight'

/** The dialog's accessible name. The default style leaves room for the close button. */
export function DialogTitle({ className, ...props }: HTMLAttributes<HTMLHeadingElement>) {
  const { Title } = radixParts[useContext(DialogRoleContext)]
  return <Title {...props} className={className ?? `pr-10 ${defaultTitleClassName}`} />
}

/** The dialog's accessible description. */
export function DialogDescription({ children }: { children?: ReactNode }) {
  const { Description } = radixParts[useContext(DialogRoleContext)]
  return <Description className="mt-2 text-muted text-sm">{children}</Description>
}

/** Closes the dialog when its one child (a button) is pressed; in an alert dialog it is the Cancel. */
export function DialogClose({ children }: { children: ReactNode }) {
  const { Close } = radixParts[useContext(DialogRoleContext)]
  return <Close asChild>{children}</Close>
}
