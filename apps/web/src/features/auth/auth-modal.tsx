import { Dialog, DialogTitle } from '../../ui/dialog'
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
    <Dialog open={isOpen} onOpenChange={(open) => (open ? undefined : close())} isDescribed={false} size="sm">
      <AuthPanel Title={DialogTitle} purpose={purpose} onSignedIn={close} />
    </Dialog>
  )
}
