import { KeyRound } from 'lucide-react'
import { Button } from '../../ui/button'

/**
 * Shown instead of a Self Swap step when the embedded wallet's session has ended (it signs through
 * the signer, which needs a live session): says so and offers to sign in again.
 */
export function SessionEndedPanel({ onSignInAgain }: { onSignInAgain: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 py-4 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent">
        <KeyRound aria-hidden="true" className="size-6" />
      </span>
      <p role="alert" className="font-medium">
        Your wallet session has ended.
      </p>
      <p className="text-muted text-sm">Sign in again to swap with your wallet.</p>
      <Button size="lg" className="mt-2 w-full" onClick={onSignInAgain}>
        Sign in again
      </Button>
    </div>
  )
}
