import { type ComponentType, type LazyExoticComponent, lazy, type ReactNode, Suspense, useState } from 'react'
import { Spinner } from './spinner'

/** Handlers for the button that opens a lazy dialog: each fetches its code ahead of the press. */
export type IntentHandlers = {
  onPointerEnter: () => void
  onPointerDown: () => void
  onFocus: () => void
}

export type LazyOnIntent<P> = {
  /** The component behind React.lazy: render it inside `MountOnFirstOpen`. */
  Component: LazyExoticComponent<ComponentType<P>>
  /** Starts fetching the component's code without rendering it. */
  preload: () => void
  /** Spread on the opening button: a pointer over it (desktop), a finger on it (phone) or focus preloads. */
  intentHandlers: IntentHandlers
}

/**
 * A dialog whose code (and everything it imports) loads on intent, in its own chunk: nothing of it
 * is fetched before the visitor points at, touches or focuses its button (`intentHandlers`), or it
 * is first opened (render `Component` inside `MountOnFirstOpen`). The pay modal (the wallet stack)
 * is one; the deposit view plugs in the same way
 * (docs/decisions/0028-the-pay-page-loads-the-wallet-on-intent.md).
 */
export function lazyOnIntent<P>(load: () => Promise<{ default: ComponentType<P> }>): LazyOnIntent<P> {
  const preload = () => {
    void load()
  }
  return {
    Component: lazy(load),
    preload,
    intentHandlers: { onPointerEnter: preload, onPointerDown: preload, onFocus: preload },
  }
}

export type MountOnFirstOpenProps = {
  open: boolean
  /** The accessible name of the spinner shown over the page while the code arrives. */
  loadingLabel: string
  /** The lazy dialog, given its `open` (it stays mounted once opened, so it can animate out). */
  children: ReactNode
}

/** Renders nothing until `open` is first true; from then on `children`, behind a named spinner while they load. */
export function MountOnFirstOpen({ open, loadingLabel, children }: MountOnFirstOpenProps) {
  const [hasOpened, setHasOpened] = useState(open)
  if (open && !hasOpened) setHasOpened(true)
  if (!hasOpened) return null
  return (
    <Suspense
      fallback={
        <div
          role="status"
          aria-label={loadingLabel}
          className="fixed inset-0 z-50 flex items-center justify-center bg-overlay"
        >
          <Spinner className="size-8 text-white" />
        </div>
      }
    >
      {children}
    </Suspense>
  )
}
