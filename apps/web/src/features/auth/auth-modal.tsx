import { X } from 'lucide-react'
import { Dialog } from 'radix-ui'
import { useAuthModalStore } from './auth-modal-store'
import { AuthPanel } from './auth-panel'

/**
 * The auth modal (SPEC "Auth UI defaults": modal mode, no header bar, sign-in text shown). Closing
 * it drops the flow's state; the next open starts on the e-mail step.
 */
export function AuthModal() {
  const isOpen = useAuthModalStore((state) => state.isOpen)
  const purpose = useAuthModalStore((state) => state.purpose)
  const close = useAuthModalStore((state) => state.close)
  return (
    <Dialog.Root open={isOpen} onOpenChange={(open) => (open ? undefined : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-overlay data-[state=open]:animate-fade-in" />
        <Dialog.Content
          aria-describedby={undefined}
          className={
            'fixed inset-x-0 bottom-0 z-50 max-h-[90dvh] overflow-y-auto rounded-t-card border border-border bg-surface p-6 pb-[max(1.5rem,env(safe-area-inset-bottom))] shadow-pop ' +
            'data-[state=open]:animate-pop-in sm:inset-x-auto sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:w-full sm:max-w-sm sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-card sm:p-8'
          }
        >
          <AuthPanel Title={Dialog.Title} purpose={purpose} onSignedIn={close} />
          <Dialog.Close asChild>
            <button
              type="button"
              aria-label="Close"
              className="absolute top-2 right-2 inline-flex size-11 items-center justify-center rounded-control text-muted hover:bg-subtle hover:text-fg"
            >
              <X aria-hidden="true" className="size-5" />
            </button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
