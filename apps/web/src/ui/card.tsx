import type { HTMLAttributes } from 'react'
import { classNames } from './class-names'

/** A surface with the card radius (16 px), a hairline border and a soft shadow. */
export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={classNames('rounded-card border border-border bg-surface shadow-card', className)}
      {...props}
    />
  )
}
