import { classNames } from './class-names'

/**
 * A grey placeholder of the size of the content it stands for, so nothing jumps when it arrives.
 * Rounded like a control unless the caller gives its own `rounded-*` class.
 */
export function Skeleton({ className = '' }: { className?: string }) {
  const hasRadius = /(^|\s)rounded-/.test(className)
  return (
    <div
      aria-hidden="true"
      className={classNames('animate-shimmer bg-subtle', !hasRadius && 'rounded-control', className)}
    />
  )
}
