import { Skeleton } from '../ui/skeleton'

/** The placeholder a screen shows while its code or its session check loads. */
export function ScreenSkeleton() {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10" role="status" aria-label="Loading">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="mt-4 h-4 w-72 max-w-full" />
      <Skeleton className="mt-8 h-32 w-full rounded-card" />
    </div>
  )
}
