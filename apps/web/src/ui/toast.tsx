import { X } from 'lucide-react'
import { Toast as ToastPrimitive } from 'radix-ui'
import type { ComponentProps } from 'react'
import { classNames } from './class-names'
import type { ToastVariant } from './use-toast'

/** Radix Toast, styled. The store lives in use-toast.ts; the app renders these in its Toaster. */

export const ToastProvider = ToastPrimitive.Provider

export function ToastViewport({ className, ...props }: ComponentProps<typeof ToastPrimitive.Viewport>) {
  return (
    <ToastPrimitive.Viewport
      // A modal dialog hides everything outside it from assistive technology (aria-hidden), except
      // live regions: marking the viewport as one keeps a toast raised from inside a dialog (the pay
      // modal's 'Payment failed') reachable. 'off' because Radix announces each toast itself.
      aria-live="off"
      className={classNames(
        'fixed inset-x-0 bottom-0 z-[100] mx-auto flex max-h-dvh w-full flex-col gap-2 p-4 outline-none',
        'sm:right-0 sm:left-auto sm:max-w-sm',
        className,
      )}
      {...props}
    />
  )
}

const variantClasses: Record<ToastVariant, string> = {
  default: 'border-border bg-surface text-fg',
  destructive: 'border-danger bg-danger-soft text-fg',
}

export function Toast({
  className,
  variant = 'default',
  ...props
}: ComponentProps<typeof ToastPrimitive.Root> & { variant?: ToastVariant }) {
  return (
    <ToastPrimitive.Root
      data-variant={variant}
      className={classNames(
        'group pointer-events-auto relative flex w-full items-start gap-3 rounded-card border p-4 pr-12 shadow-pop',
        'data-[state=open]:animate-toast-in data-[state=closed]:animate-fade-in data-[state=closed]:opacity-0',
        'data-[swipe=move]:translate-y-[var(--radix-toast-swipe-move-y)] data-[swipe=cancel]:translate-y-0',
        'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0',
        'data-[swipe=end]:opacity-0',
        variantClasses[variant],
        className,
      )}
      {...props}
    />
  )
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof ToastPrimitive.Title>) {
  return <ToastPrimitive.Title className={classNames('font-semibold text-sm', className)} {...props} />
}

export function ToastDescription({ className, ...props }: ComponentProps<typeof ToastPrimitive.Description>) {
  return <ToastPrimitive.Description className={classNames('text-muted text-sm', className)} {...props} />
}

export function ToastClose({ className, ...props }: ComponentProps<typeof ToastPrimitive.Close>) {
  return (
    <ToastPrimitive.Close
      aria-label="Close"
      className={classNames(
        'absolute top-1.5 right-1.5 inline-flex size-11 items-center justify-center rounded-control text-muted',
        'hover:bg-subtle hover:text-fg',
        className,
      )}
      {...props}
    >
      <X aria-hidden="true" className="size-4" />
    </ToastPrimitive.Close>
  )
}

export const ToastAction = ToastPrimitive.Action
