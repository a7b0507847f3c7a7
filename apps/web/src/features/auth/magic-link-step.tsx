import { AuthProgressStep } from './auth-progress-step'
import type { AuthStepProps } from './auth-step-props'

/** A magic link being opened: 'Signing you in…', or 'This link did not work' with its error. */
export function MagicLinkStep({ step, dispatch, Title }: AuthStepProps<'magicLink'>) {
  return (
    <AuthProgressStep
      Title={Title}
      title={step.status === 'error' ? 'This link did not work' : 'Signing you in…'}
      error={step.error}
      onBack={() => dispatch({ type: 'back' })}
    />
  )
}
