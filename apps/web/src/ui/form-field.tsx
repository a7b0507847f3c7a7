import type { ReactNode } from 'react'
import { classNames } from './class-names'

/**
 * A labelled form field with its message line below (`{id}-message`, for aria-describedby): the
 * error when there is one, else the help, else an empty line that keeps the layout still.
 */
export function FormField({
  id,
  label,
  error,
  help,
  children,
}: {
  id: string
  label: string
  error?: string | undefined
  help?: string | undefined
  children: ReactNode
}) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="font-medium text-sm">
        {label}
      </label>
      {children}
      <p
        id={`${id}-message`}
        className={classNames('min-h-4 text-xs', error === undefined ? 'text-muted' : 'text-danger')}
      >
        {error ?? help ?? ''}
      </p>
    </div>
  )
}
