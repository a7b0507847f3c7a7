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

  // Only for a visitor known to be signed out: a signed-in one is being sent on (the guard).
  useEffect(() => {
    if (isPending || isSignedIn || hasOpenedHere.current) return
    open()
    hasOpenedHere.current = true
  }, [isPending, isSignedIn, open])

  useEffect(() => {
    if (hasOpenedHere.current && !isOpen && !isSignedIn) void navigate('/', { replace: true })
  }, [isOpen, isSignedIn, navigate])

  return <LandingScreen />
}
