import { Link2 } from 'lucide-react'
import { Card } from '../../ui/card'

/** /dashboard, the Links tab. The link list and link manager arrive with the links feature. */
export function DashboardScreen() {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-10">
      <h1 className="font-semibold text-2xl tracking-tight">Links</h1>
      <p className="mt-1 text-muted text-sm">Your payment links.</p>
      <Card className="mt-6 flex flex-col items-center px-6 py-12 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent">
          <Link2 aria-hidden="true" className="size-6" />
        </span>
        <h2 className="mt-4 font-semibold">No links yet</h2>
        <p className="mt-1 max-w-sm text-muted text-sm">
          Creating payment links is being set up. Your links will appear here.
        </p>
      </Card>
    </div>
  )
}
