import { Compass } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '../ui/button'

/** Any address that is no screen and no link. */
export function NotFoundScreen() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-subtle text-muted">
        <Compass aria-hidden="true" className="size-7" />
      </span>
      <h1 className="mt-6 font-semibold text-2xl tracking-tight">Page not found</h1>
      <p className="mt-2 text-muted">There is nothing at this address. Check it for typos, or start over.</p>
      <Button asChild className="mt-8">
        <Link to="/">Go to the home page</Link>
      </Button>
    </div>
  )
}
