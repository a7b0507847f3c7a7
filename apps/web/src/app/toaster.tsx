import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from '../ui/toast'
import { toastDurationMs, toastSwipeThreshold, useToast } from '../ui/use-toast'

/** The toast area (docs/product.md#toasts): one toast at a time, shown 5 s, swipe 50 px to dismiss. */
export function Toaster() {
  const { toasts } = useToast()
  return (
    <ToastProvider duration={toastDurationMs} swipeThreshold={toastSwipeThreshold} swipeDirection="right">
      {toasts.map(({ id, title, description, action, variant, ...props }) => (
        <Toast key={id} variant={variant ?? 'default'} {...props}>
          <div className="grid gap-1">
            {title === undefined ? null : <ToastTitle>{title}</ToastTitle>}
            {description === undefined ? null : <ToastDescription>{description}</ToastDescription>}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport />
    </ToastProvider>
  )
}
