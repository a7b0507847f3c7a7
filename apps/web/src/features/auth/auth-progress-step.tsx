import { CheckCircle2, TriangleAlert } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { Spinner } from '../../ui/spinner'
import type { AuthTitle } from './auth-title'

/**
 * A step that waits for the wallet or the session: a spinner and 'Setting up your secure session.',
 * then done, or the error with 'Try again' (when it can be retried) and 'Back to sign in'.
 */
export function AuthProgressStep({
  Title,
  title,
  error,
  isDone = false,
  onRetry,
  onBack,
}: {
  Title: AuthTitle
  title: string
  error: string | null
  isDone?: boolean
  onRetry?: () => void
  onBack: () => void
}) {
  let icon: ReactNode
  if (isDone) icon = <CheckCircle2 aria-hidden="true" className="size-6" />
  else if (error === null) icon = <Spinner className="size-6" />
  else icon = <TriangleAlert aria-hidden="true" className="size-6" />
  return (
    <div className="flex flex-col items-center py-4 text-center">
      <span
        className={classNames(
          'flex size-12 items-center justify-center rounded-full',
          error === null ? 'bg-accent-soft text-accent' : 'bg-danger-soft text-danger',
        )}
      >
        {icon}
      </span>
      <Title className="mt-4 font-semibold text-2xl tracking-tight">{title}</Title>
      {error === null ? (
        <p role="status" className="mt-2 text-muted text-sm">
          {isDone ? 'Taking you to your account.' : 'Setting up your secure session.'}
        </p>
      ) : (
        <>
          <p
            role="alert"
            className="mt-3 w-full rounded-control bg-danger-soft px-3 py-2 text-danger text-sm"
          >
            {error}
          </p>
          <div className="mt-6 flex w-full flex-col gap-2">
            {onRetry === undefined ? null : <Button onClick={onRetry}>Try again</Button>}
            <Button variant={onRetry === undefined ? 'primary' : 'secondary'} onClick={onBack}>
              Back to sign in
            </Button>
          </div>
        </>
      )}
    </div>
  )
}
