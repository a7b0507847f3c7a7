import { AuthProgressStep } from './auth-progress-step'
import type { AuthStepProps } from './auth-step-props'

/**
 * The wallet is connected and the app session (SIWE) opens: 'Signing you in…', 'Signed in', or
 * 'Sign-in failed' with 'Try again' (`onRetry`).
 */
export function SessionStep({
  step,
  dispatch,
  Title,
  onRetry,
}: AuthStepProps<'session'> & { onRetry: () => void }) {
  return (
    <AuthProgressStep
      Title={Title}
      title={
        step.status === 'success'
          ? 'Signed in'
          : step.status === 'error'
            ? 'Sign-in failed'
            : 'Signing you in…'
      }
      isDone={step.status === 'success'}
      error={step.error}
      onRetry={() => {
        dispatch({ type: 'sessionRetried' })
        onRetry()
      }}
      onBack={() => dispatch({ type: 'back' })}
    />
  )
}
