import { type ClipboardEvent, type KeyboardEvent, useState } from 'react'
import { classNames } from '../../ui/class-names'

export const otpLength = 6

export type CodeInputProps = {
  id: string
  value: string
  /** Called with the digits only, at most `length` of them. */
  onChange: (value: string) => void
  /** Called once the code has all its digits, by typing, pasting or autofill. */
  onComplete: (code: string) => void
  length?: number
  disabled?: boolean
  invalid?: boolean
  /** Ids of the hint and error texts that describe the field. */
  describedBy?: string
  autoFocus?: boolean
}

/** The digits of `text`, at most `length` ("123 456", "123-456" and "Code: 123456" all work). */
export function sanitizeCode(text: string, length = otpLength): string {
  return text.replace(/\D/g, '').slice(0, length)
}

/**
 * The one-time-code field: one real input (so autofill from SMS or mail, paste and screen readers
 * work as with any text field) drawn as `length` boxes. Pasting a whole code replaces what was
 * typed; the code submits itself as soon as it is complete.
 */
export function CodeInput({
  id,
  value,
  onChange,
  onComplete,
  length = otpLength,
  disabled = false,
  invalid = false,
  describedBy,
  autoFocus = false,
}: CodeInputProps) {
  const [isFocused, setIsFocused] = useState(false)

  const update = (next: string) => {
    const digits = sanitizeCode(next, length)
    onChange(digits)
    if (digits.length === length && digits !== value) onComplete(digits)
  }

  const paste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = sanitizeCode(event.clipboardData.getData('text'), length)
    // A whole code replaces whatever was typed; a fragment is inserted where the caret is.
    if (pasted.length !== length) return
    event.preventDefault()
    onChange(pasted)
    onComplete(pasted)
  }

  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter on a complete code submits again (after an error the user may just retry).
    if (event.key === 'Enter' && value.length === length) {
      event.preventDefault()
      onComplete(value)
    }
  }

  const activeIndex = Math.min(value.length, length - 1)
  return (
    <div className="relative w-full max-w-xs">
      <div aria-hidden="true" className="grid grid-cols-6 gap-2">
        {Array.from({ length }, (_, index) => {
          const digit = value[index]
          const isActive = isFocused && !disabled && index === activeIndex
          return (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are positions, not items
              key={index}
              className={classNames(
                'flex aspect-[4/5] items-center justify-center rounded-control border bg-surface font-mono text-xl tabular-nums transition-colors sm:text-2xl',
                invalid ? 'border-danger' : isActive ? 'border-accent' : 'border-border',
                isActive && 'outline-2 outline-ring outline-offset-1',
                disabled && 'bg-subtle text-muted',
              )}
            >
              {digit ?? (isActive ? <span className="h-6 w-px animate-pulse bg-fg" /> : null)}
            </div>
          )
        })}
      </div>
      <input
        id={id}
        name="code"
        type="text"
        value={value}
        onChange={(event) => update(event.target.value)}
        onPaste={paste}
        onKeyDown={keyDown}
        onFocus={() => setIsFocused(true)}
        onBlur={() => setIsFocused(false)}
        autoComplete="one-time-code"
        inputMode="numeric"
        pattern="[0-9]*"
        spellCheck={false}
        disabled={disabled}
        // biome-ignore lint/a11y/noAutofocus: the code step exists only to take this code
        autoFocus={autoFocus}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        // Drawn by the boxes above; the real field stays on top to receive taps, typing and paste.
        className="absolute inset-0 h-full w-full cursor-text bg-transparent font-mono text-transparent caret-transparent outline-none selection:bg-transparent disabled:cursor-not-allowed"
      />
    </div>
  )
}
