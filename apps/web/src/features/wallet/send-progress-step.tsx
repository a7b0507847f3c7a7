import { CheckCircle2, Circle } from 'lucide-react'
import { DialogDescription, DialogTitle } from '../../ui/dialog'
import { Spinner } from '../../ui/spinner'
import type { SendStep } from './send-dialog-state'

const stepLabels: Record<SendStep, string> = {
  preparing: 'Preparing the transfer',
  sponsoring: 'Getting the gas sponsored',
  signing: 'Signing with your wallet',
  submitted: 'Submitted to the network',
  included: 'Included in a block',
}

export type SendProgressStepProps = {
  /** A sponsored send has one more stage: getting the gas sponsored. */
  sponsored: boolean
  step: SendStep
  statusId: string
}

/** 'Sending': the send's stages, done, in progress or waiting, the current one announced. */
export function SendProgressStep({ sponsored, step, statusId }: SendProgressStepProps) {
  const steps: SendStep[] = sponsored
    ? ['preparing', 'sponsoring', 'signing', 'submitted', 'included']
    : ['preparing', 'signing', 'submitted', 'included']
  const currentIndex = steps.indexOf(step)
  return (
    <div>
      <DialogTitle>Sending</DialogTitle>
      <DialogDescription>Keep this window open until the transfer is included.</DialogDescription>
      <ol aria-label="Progress" className="mt-5 grid gap-3 text-sm">
        {steps.map((candidate, index) => {
          const state = index < currentIndex ? 'done' : index === currentIndex ? 'current' : 'pending'
          return (
            <li key={candidate} className="flex min-h-6 items-center gap-2">
              {state === 'done' ? (
                <CheckCircle2 aria-hidden="true" className="size-5 shrink-0 text-success" />
              ) : state === 'current' ? (
                <Spinner className="size-5 shrink-0 text-accent" />
              ) : (
                <Circle aria-hidden="true" className="size-5 shrink-0 text-muted" />
              )}
              <span className={state === 'pending' ? 'text-muted' : 'font-medium'}>
                {stepLabels[candidate]}
              </span>
              <span className="sr-only">
                {state === 'done' ? ' (done)' : state === 'current' ? ' (in progress)' : ' (waiting)'}
              </span>
            </li>
          )
        })}
      </ol>
      <p id={statusId} aria-live="polite" className="sr-only">
        {stepLabels[step]}
      </p>
    </div>
  )
}
