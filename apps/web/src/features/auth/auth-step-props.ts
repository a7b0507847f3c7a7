import type { AuthDispatch, AuthStep, AuthStepOf } from './auth-flow-state'
import type { AuthTitle } from './auth-title'

/** What every sign-in step component receives: its own step, the flow's dispatch, the heading. */
export type AuthStepProps<Type extends AuthStep['type']> = {
  step: AuthStepOf<Type>
  dispatch: AuthDispatch
  Title: AuthTitle
}
