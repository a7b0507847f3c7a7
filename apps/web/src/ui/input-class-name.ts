import { classNames } from './class-names'

/** A form's input and select classes (the link form, Send), with the danger border when the field is invalid. */
export function getInputClassName(isInvalid: boolean): string {
  return classNames(
    'min-h-11 w-full rounded-control border bg-surface px-3 text-fg text-sm placeholder:text-muted',
    'disabled:cursor-not-allowed disabled:bg-subtle disabled:text-muted',
    isInvalid ? 'border-danger' : 'border-border',
  )
}
