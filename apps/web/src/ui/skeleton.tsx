import { classNames } from './class-names'

/** A grey placeholder of the size of the content it stands for, so nothing jumps when it arrives. */
export function Skeleton({ className }: { className?: string }) {
  return (
    <div aria-hidden="true" className={classNames('animate-shimmer rounded-control bg-subtle', className)} />
  )
}
