import { TriangleAlert } from 'lucide-react'
import { useRouteError } from 'react-router'
import { Button } from '../ui/button'

/** Shown instead of a screen that crashed (or whose code failed to load after a deploy). */
export function RouteErrorScreen() {
  const error = useRouteError()
  console.error(error)
  return (
    <div className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center px-4 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-danger-soft text-danger">
        <TriangleAlert aria-hidden="true" className="size-7" />
      </span>
      <h1 className="mt-6 font-semibold text-2xl tracking-tight">Something went wrong</h1>
      <p className="mt-2 text-muted">The page could not be shown. Reloading usually fixes it.</p>
      <Button className="mt-8" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </div>
  )
}
