import { classNames } from '../../ui/class-names'
import type { EmailMode } from './auth-flow-state'

/** One of the e-mail step's 'Send me' radios, drawn as a button-sized option. */
export function EmailModeOption({
  mode,
  current,
  label,
  onChoose,
}: {
  mode: EmailMode
  current: EmailMode
  label: string
  onChoose: (mode: EmailMode) => void
}) {
  const checked = mode === current
  return (
    <label
      className={classNames(
        'relative flex min-h-11 cursor-pointer items-center justify-center rounded-control border px-3 text-sm',
        'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring has-[:focus-visible]:outline-offset-2',
        checked
          ? 'border-accent bg-accent-soft font-medium text-fg'
          : 'border-border text-muted hover:bg-subtle',
      )}
    >
      <input
        type="radio"
        name="email-mode"
        value={mode}
        checked={checked}
        onChange={() => onChoose(mode)}
        // Covers the whole option, invisible: a tap anywhere on it lands on the radio itself.
        className="absolute inset-0 size-full cursor-pointer appearance-none rounded-control opacity-0"
      />
      {label}
    </label>
  )
}
