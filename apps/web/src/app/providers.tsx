import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { lazy, type ReactNode, Suspense, useState } from 'react'
import { useToast } from '../ui/use-toast'

// The toast area's code (Radix Toast and its collection, ~30 KB before compression) is in no first
// paint: it loads with the first toast, which a visitor's first action raises, if any
// (docs/decisions/0028-the-pay-page-loads-the-wallet-on-intent.md).
const Toaster = lazy(() => import('./toaster').then((module) => ({ default: module.Toaster })))

/** The toast area, mounted from the first toast on and kept. */
function ToasterOnFirstToast() {
  const { toasts } = useToast()
  const [hasToasted, setHasToasted] = useState(false)
  if (toasts.length > 0 && !hasToasted) setHasToasted(true)
  if (!hasToasted) return null
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  )
}

/** App-wide providers: the query cache and the toast area. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <ToasterOnFirstToast />
    </QueryClientProvider>
  )
}
