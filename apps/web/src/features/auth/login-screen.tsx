import { useEffect, useRef } from 'react'
import { useNavigate } from 'react-router'
import { LandingScreen } from '../landing/landing-screen'
import { useAuthModalStore } from './auth-modal-store'
import { useSession } from './session'

/**
 * /login: the landing page with the sign-in modal open over it (docs/product.md#routes). A magic
 * link lands here and the modal completes it. Closing the modal without signing in leaves for /.
 */
export function LoginScreen() {
  const navigate = useNavigate()
  const { isSignedIn } = useSession()
  const isOpen = useAuthModalStore((state) => state.isOpen)
  const open = useAuthModalStore((state) => state.open)
  const hasOpenedHere = useRef(false)

  useEffect(() => {
    open()
    hasOpenedHere.current = true
  }, [open])

  useEffect(() => {
    if (hasOpenedHere.current && !isOpen && !isSignedIn) void navigate('/', { replace: true })
  }, [isOpen, isSignedIn, navigate])

  return <LandingScreen />
}
