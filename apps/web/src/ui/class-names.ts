import { type ClassValue, clsx } from 'clsx'

/** Joins class names; later entries do not override earlier ones, so variants never overlap. */
export function classNames(...values: ClassValue[]): string {
  return clsx(values)
}
