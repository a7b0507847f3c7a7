import { Mail, Smartphone } from 'lucide-react'
import { type FormEvent, useId } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { DialogClose, DialogDescription, DialogTitle } from '../../ui/dialog'
import { contactInputClasses } from '../auth/contact-input-classes'
import { FieldError } from '../auth/field-error'
import type { ContactChannel } from '../auth/wallet-session'
import { type ContactChangeStep, channelTexts } from './contact-change-state'

/** The contact change's first step: the new e-mail or phone number, to send its code to. */
export function ContactEntryStep({
  channel,
  current,
  state,
  onEdit,
  onSubmit,
}: {
  channel: ContactChannel
  current: string | null
  state: Extract<ContactChangeStep, { step: 'contact' }>
  onEdit: (input: string) => void
  onSubmit: (input: string) => void
}) {
  const fieldId = useId()
  const hintId = useId()
  const errorId = useId()
  const texts = channelTexts[channel]
  const Icon = channel === 'email' ? Mail : Smartphone

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!state.isBusy) onSubmit(state.input)
  }

  return (
    <div>
      <DialogTitle>{current === null ? texts.add : texts.change}</DialogTitle>
      <DialogDescription>
        {current === null ? null : (
          <>
            You sign in with <strong className="break-all font-medium text-fg">{current}</strong> now.{' '}
          </>
        )}
        {texts.intro}
      </DialogDescription>
      <form className="mt-6" onSubmit={submit} noValidate>
        <label htmlFor={fieldId} className="font-medium text-sm">
          {current === null ? texts.addField : texts.field}
        </label>
        <div className="relative mt-2">
          <Icon
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
          />
          <input
            id={fieldId}
            type={channel === 'email' ? 'email' : 'tel'}
            name={channel === 'email' ? 'email' : 'phone'}
            autoComplete={channel === 'email' ? 'email' : 'tel'}
            inputMode={channel === 'email' ? 'email' : 'tel'}
            placeholder={texts.placeholder}
            value={state.input}
            onChange={(event) => onEdit(event.target.value)}
            readOnly={state.isBusy}
            // biome-ignore lint/a11y/noAutofocus: the dialog opens to take this one field
            autoFocus
            aria-invalid={state.error !== null || undefined}
            aria-describedby={
              channel === 'sms' ? (state.error === null ? hintId : `${errorId} ${hintId}`) : errorId
            }
            className={classNames(contactInputClasses, 'border-border')}
          />
        </div>
        <FieldError id={errorId} message={state.error} />
        {channel === 'sms' ? (
          <p id={hintId} className="mt-2 text-muted text-xs">
            Start with + and your country code, for example +44 for the UK or +1 for the US.
          </p>
        ) : null}
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <DialogClose>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button type="submit" isBusy={state.isBusy}>
            Send code
          </Button>
        </div>
      </form>
    </div>
  )
}
