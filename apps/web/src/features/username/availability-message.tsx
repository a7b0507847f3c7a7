import { classNames } from '../../ui/class-names'
import type { UsernameAvailability } from './use-username-availability'

/**
 * The line under the username search: checking, invalid, available, failed, or taken with the
 * suggestion chips (`onPick` selects one).
 */
export function AvailabilityMessage({
  availability,
  onPick,
}: {
  availability: UsernameAvailability
  onPick: (name: string) => void
}) {
  switch (availability.status) {
    case 'idle':
      return null
    case 'checking':
      return <p className="text-muted">Checking…</p>
    case 'invalid':
      return <p className="text-danger">Use 3 to 32 letters, digits or underscores.</p>
    case 'available':
      return <p className="font-medium text-success">@{availability.name} is available!</p>
    case 'error':
      return <p className="text-danger">Could not check availability. Please try again.</p>
    case 'taken':
      return (
        <div>
          <p className="text-danger">That handle is taken. Try one:</p>
          <ul aria-label="Suggestions" className="mt-2 flex flex-wrap gap-2">
            {availability.suggestions.map((suggestion) => (
              <li key={suggestion}>
                <button
                  type="button"
                  onClick={() => onPick(suggestion)}
                  className={classNames(
                    'min-h-11 rounded-full border border-border bg-subtle px-4 text-sm',
                    'hover:border-accent hover:bg-accent-soft',
                  )}
                >
                  @{suggestion}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )
    default: {
      const unknownStatus: never = availability
      return unknownStatus
    }
  }
}
