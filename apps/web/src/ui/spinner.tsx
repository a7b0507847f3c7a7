import { LoaderCircle } from 'lucide-react'
import { classNames } from './class-names'

/** A busy indicator for inside a button; the button's label says what is happening. */
export function Spinner({ className }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={classNames('animate-spin', className)} />
}
