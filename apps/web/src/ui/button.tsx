import { Slot } from 'radix-ui'
import type { ButtonHTMLAttributes, Ref } from 'react'
import { classNames } from './class-names'
import { Spinner } from './spinner'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'
export type ButtonSize = 'md' | 'compact' | 'lg' | 'icon'

const base =
  'inline-flex shrink-0 select-none items-center justify-center gap-2 rounded-control font-medium ' +
  'transition-colors disabled:cursor-not-allowed disabled:opacity-55 aria-disabled:cursor-not-allowed ' +
  'aria-disabled:opacity-55 [&_svg]:size-[18px] [&_svg]:shrink-0'

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-accent text-accent-fg shadow-sm hover:bg-accent-hover disabled:hover:bg-accent',
  secondary: 'border border-border bg-surface text-fg hover:bg-subtle disabled:hover:bg-surface',
  ghost: 'text-fg hover:bg-subtle disabled:hover:bg-transparent',
  danger: 'bg-danger text-danger-fg shadow-sm hover:bg-danger-hover disabled:hover:bg-danger',
}

// Every size keeps the 44 px minimum touch target.
const sizes: Record<ButtonSize, string> = {
  md: 'min-h-11 px-4 text-sm',
  compact: 'min-h-11 min-w-11 px-3 text-sm',
  lg: 'min-h-12 px-6 text-base',
  icon: 'size-11',
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant
  size?: ButtonSize
  /** Shows a spinner inside the button and disables it. */
  isBusy?: boolean
  /** Renders the child element (a router Link, an anchor) with the button's look. */
  asChild?: boolean
  ref?: Ref<HTMLButtonElement>
}

/** The one button: primary, secondary, ghost or danger; at least 44 px tall. */
export function Button({
  variant = 'primary',
  size = 'md',
  isBusy = false,
  asChild = false,
  className,
  disabled,
  children,
  type,
  ...props
}: ButtonProps) {
  const classes = classNames(base, variants[variant], sizes[size], className)
  if (asChild) {
    return (
      <Slot.Root className={classes} {...props}>
        {children}
      </Slot.Root>
    )
  }
  return (
    <button
      type={type ?? 'button'}
      className={classes}
      disabled={disabled === true || isBusy}
      aria-busy={isBusy || undefined}
      {...props}
    >
      {isBusy ? <Spinner /> : null}
      {children}
    </button>
  )
}
