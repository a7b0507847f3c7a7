import { type ComponentType, lazy, Suspense, useState } from 'react'
import { Spinner } from './spinner'

/** Handlers for the button that opens a lazy dialog: each fetches its code ahead of the press. */
export type IntentHandlers = {
  onPointerEnter: () => void
  onPointerDown: () => void
  onFocus: () => void
}

export type LazyOnOpen<P extends { open: boolean }> = {
  /** Renders nothing until `open` is first true; from then on the dialog itself (kept mounted). */
  Dialog: (props: P) => React.JSX.Element | null
  /** Starts fetching the dialog's code without opening it. */
  preload: () => void
  /** Spread on the opening button: a pointer over it (desktop), a finger on it (phone) or focus preloads. */
  intentHandlers: IntentHandlers
}

/**
 * A dialog whose code (and everything it imports) loads on intent, in its own chunk: nothing of it
 * is fetched before the visitor points at, touches or focuses its button, or first opens it; until
 * it arrives a spinner over the page, named `loadingLabel`, stands in. The pay modal (the wallet
 * stack) is one; the deposit view plugs in the same way
 * (docs/decisions/0026-the-pay-page-loads-the-wallet-on-intent.md).
 */
export function lazyOnOpen<P extends { open: boolean }>(
  load: () => Promise<{ default: ComponentType<P> }>,
  loadingLabel: string,
): LazyOnOpen<P> {
  const Component = lazy(load)
  const preload = () => {
    void load()
  }
  function Dialog(props: P) {
    const [hasOpened, setHasOpened] = useState(props.open)
    if (props.open && !hasOpened) setHasOpened(true)
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
        <Component {...props} />
      </Suspense>
    )
  }
  return {
    Dialog,
    preload,
    intentHandlers: { onPointerEnter: preload, onPointerDown: preload, onFocus: preload },
  }
}
