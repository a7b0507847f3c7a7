import { ArrowRight } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'

/** /onboarding: a short welcome for a new payee before the dashboard. */
export function OnboardingScreen() {
  return (
    <div className="mx-auto w-full max-w-lg px-4 py-10 sm:py-16">
      <Card className="p-6 sm:p-8">
        <h1 className="font-semibold text-2xl tracking-tight">Welcome to Quick Links</h1>
        <p className="mt-2 text-muted">
          Your wallet is ready. Create your first payment link and share it with the people who pay you.
        </p>
        <Button asChild className="mt-6">
          <Link to="/dashboard">
            Go to your links
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </Card>
    </div>
  )
}
