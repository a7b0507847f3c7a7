import { useEffect, useRef } from 'react'
import { useNavigate } from 'react-router'
import { useAuthModalStore } from '../features/auth/auth-modal-store'
import { useSession } from '../features/auth/session'
import { LandingScreen } from '../features/landing/landing-screen'

/**
 * /login: the landing page with the sign-in modal open over it (docs/product.md#routes). A magic
 * link lands here and the modal completes it. Closing the modal without signing in leaves for /.
 */
export function LoginScreen() {
  const navigate = useNavigate()
  const { isPending, isSignedIn } = useSession()
  const isOpen = useAuthModalStore((state) => state.isOpen)
  const open = useAuthModalStore((state) => state.open)
  const hasOpenedHere = useRef(false)
  const hasBeenOpen = useRef(false)

  // Only for a visitor known to be signed out: a signed-in one is being sent on (the guard).
  useEffect(() => {
    if (isPending || isSignedIn || hasOpenedHere.current) return
    open()
    hasOpenedHere.current = true
  }, [isPending, isSignedIn, open])

  // Leaves once the modal, having been seen open here, is closed without a sign-in. (Reading the
  // open flag of the render that opened it would see it still closed and leave at once.)
  useEffect(() => {
    if (isOpen) {
      hasBeenOpen.current = hasOpenedHere.current
      return
    }
    if (hasBeenOpen.current && !isSignedIn) void navigate('/', { replace: true })
  }, [isOpen, isSignedIn, navigate])

  return <LandingScreen />
}
