import { Dialog, DialogTitle } from '../../ui/dialog'
import { AuthIllustration } from './auth-illustration'
import { useAuthModalStore } from './auth-modal-store'
import { AuthPanel } from './auth-panel'

/**
 * The auth modal (docs/product.md#sign-in): the flat illustration, no header bar, the sign-in
 * text shown. Closing it drops the flow's state; the next open starts on the e-mail step.
 */
export function AuthModal() {
  const isOpen = useAuthModalStore((state) => state.isOpen)
  const purpose = useAuthModalStore((state) => state.purpose)
  const close = useAuthModalStore((state) => state.close)
  return (
    <Dialog open={isOpen} onOpenChange={(open) => (open ? undefined : close())} isDescribed={false} size="sm">
      <AuthIllustration />
      <AuthPanel Title={DialogTitle} purpose={purpose} onSignedIn={close} />
    </Dialog>
  )
}
