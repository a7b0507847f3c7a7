import { Button, type ButtonProps } from '../ui/button'

/** The theme trigger's look and accessible name, shared by the placeholder and the real menu trigger. */
export function ThemeTriggerButton(props: ButtonProps) {
  return <Button variant="ghost" size="icon" aria-label="Toggle theme" {...props} />
}
