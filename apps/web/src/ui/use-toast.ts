import { type ReactElement, type ReactNode, useEffect, useState } from 'react'

/**
 * The toast store (docs/product.md#toasts, shadcn's pattern over Radix Toast): a toast is added open,
 * can be updated, is dismissed (open false) and removed 1,000,000 ms later. At most one is shown:
 * a new toast replaces the previous one.
 */

export const toastLimit = 1
export const toastRemoveDelayMs = 1_000_000
export const toastDurationMs = 5000
export const toastSwipeThreshold = 50

export type ToastVariant = 'default' | 'destructive'

export type ToastOptions = {
  title?: ReactNode
  description?: ReactNode
  action?: ReactElement
  variant?: ToastVariant
  /** Milliseconds before it closes itself; the provider's 5000 ms by default. */
  duration?: number
}

export type ToastItem = ToastOptions & {
  id: string
  open: boolean
  onOpenChange: (open: boolean) => void
}

type ToastState = { toasts: ToastItem[] }

type ToastAction =
  | { type: 'add'; toast: ToastItem }
  | { type: 'update'; toast: Partial<ToastItem> & { id: string } }
  | { type: 'dismiss'; toastId?: string }
  | { type: 'remove'; toastId?: string }

let count = 0
const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>()
const listeners = new Set<(state: ToastState) => void>()
let memoryState: ToastState = { toasts: [] }

function createId(): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER
  return String(count)
}

function scheduleRemoval(toastId: string): void {
  if (removeTimeouts.has(toastId)) return
  const timeout = setTimeout(() => {
    removeTimeouts.delete(toastId)
    dispatch({ type: 'remove', toastId })
  }, toastRemoveDelayMs)
  removeTimeouts.set(toastId, timeout)
}

/** The pure state transition, exported for tests. */
export function reduceToasts(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case 'add':
      return { toasts: [action.toast, ...state.toasts].slice(0, toastLimit) }
    case 'update':
      return {
        toasts: state.toasts.map((toast) =>
          toast.id === action.toast.id ? { ...toast, ...action.toast } : toast,
        ),
      }
    case 'dismiss':
      return {
        toasts: state.toasts.map((toast) =>
          action.toastId === undefined || toast.id === action.toastId ? { ...toast, open: false } : toast,
        ),
      }
    case 'remove':
      return {
        toasts:
          action.toastId === undefined ? [] : state.toasts.filter((toast) => toast.id !== action.toastId),
      }
    default: {
      const unknownAction: never = action
      return unknownAction
    }
  }
}

function dispatch(action: ToastAction): void {
  if (action.type === 'dismiss') {
    // Side effect kept out of the reducer: dismissed toasts are removed after the delay.
    for (const toast of memoryState.toasts) {
      if (action.toastId === undefined || toast.id === action.toastId) scheduleRemoval(toast.id)
    }
  }
  memoryState = reduceToasts(memoryState, action)
  for (const listener of listeners) listener(memoryState)
}

export type ToastHandle = {
  id: string
  dismiss: () => void
  update: (options: ToastOptions) => void
}

/** Shows a toast, replacing the one on screen. `toast({ title, description, variant })`. */
export function toast(options: ToastOptions): ToastHandle {
  const id = createId()
  const dismiss = (): void => dispatch({ type: 'dismiss', toastId: id })
  const update = (next: ToastOptions): void => dispatch({ type: 'update', toast: { ...next, id } })
  dispatch({
    type: 'add',
    toast: {
      ...options,
      id,
      open: true,
      onOpenChange: (open) => {
        if (!open) dismiss()
      },
    },
  })
  return { id, dismiss, update }
}

/** Closes one toast, or all of them. */
export function dismissToast(toastId?: string): void {
  dispatch(toastId === undefined ? { type: 'dismiss' } : { type: 'dismiss', toastId })
}

/** The toasts to render plus `toast` and `dismiss`, for components. */
export function useToast(): ToastState & { toast: typeof toast; dismiss: typeof dismissToast } {
  const [state, setState] = useState<ToastState>(memoryState)
  useEffect(() => {
    listeners.add(setState)
    setState(memoryState)
    return () => {
      listeners.delete(setState)
    }
  }, [])
  return { ...state, toast, dismiss: dismissToast }
}
