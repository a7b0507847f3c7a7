import { Trash2 } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import { Dialog, DialogClose, DialogDescription, DialogTitle } from '../../ui/dialog'
import { toast } from '../../ui/use-toast'
import { describeAuthError } from '../auth/describe-auth-error'
import { FieldError } from '../auth/field-error'
import {
  type ContactChannel,
  removeContact,
  sendContactCode,
  verifyContactCode,
} from '../auth/wallet-session'
import {
  AuthenticatorCodeStep,
  readAuthenticatorRefusal,
  useHasAuthenticatorApp,
} from './authenticator-code-step'
import { CodeEntryStep } from './code-entry-step'
import { useInvalidateAuthMethods } from './use-auth-methods'

type RemoveStep =
  | { step: 'confirm'; error: string | null; isBusy: boolean }
  | { step: 'code'; otpId: string; sentAt: number; error: string | null; isBusy: boolean }
  | { step: 'totp'; verificationToken: string; error: string | null; isBusy: boolean }

const channelTexts = {
  email: {
    title: 'Remove email',
    noun: 'email address',
    done: 'Email removed',
    checkTitle: 'Check your email',
  },
  sms: {
    title: 'Remove phone number',
    noun: 'phone number',
    done: 'Phone number removed',
    checkTitle: 'Check your phone',
  },
} as const satisfies Record<ContactChannel, Record<string, string>>

export type ContactRemoveDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  channel: ContactChannel
  /** The contact to remove. */
  contact: string
}

/**
 * 'Remove email' / 'Remove phone number' (docs/signer.md#contact-removal): a code to the contact
 * itself proves the person reading it wants it gone; then the signer takes it off, unless it is
 * the account's last way to sign in (its refusal is shown here).
 */
export function ContactRemoveDialog({ open, onOpenChange, channel, contact }: ContactRemoveDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} size="sm">
      {open ? (
        <ContactRemoveBody channel={channel} contact={contact} onDone={() => onOpenChange(false)} />
      ) : null}
    </Dialog>
  )
}

function ContactRemoveBody({
  channel,
  contact,
  onDone,
}: {
  channel: ContactChannel
  contact: string
  onDone: () => void
}) {
  const [state, setState] = useState<RemoveStep>({ step: 'confirm', error: null, isBusy: false })
  const invalidateAuthMethods = useInvalidateAuthMethods()
  const hasTotp = useHasAuthenticatorApp()
  const errorId = useId()
  const texts = channelTexts[channel]

  const sendCode = async () => {
    setState({ step: 'confirm', error: null, isBusy: true })
    try {
      const otpId = await sendContactCode(channel, contact)
      setState({ step: 'code', otpId, sentAt: Date.now(), error: null, isBusy: false })
    } catch (error) {
      setState({
        step: 'confirm',
        error: describeAuthError(error, 'Could not send the code. Try again.'),
        isBusy: false,
      })
    }
  }

  const checkCode = async (step: Extract<RemoveStep, { step: 'code' }>, code: string) => {
    setState({ ...step, error: null, isBusy: true })
    let verificationToken: string
    try {
      verificationToken = await verifyContactCode(step.otpId, code)
    } catch (error) {
      setState({
        ...step,
        error: describeAuthError(error, 'Could not check the code. Try again.'),
        isBusy: false,
      })
      return
    }
    await remove(verificationToken)
  }

  const remove = async (verificationToken: string, totpCode?: string) => {
    if (hasTotp && totpCode === undefined) {
      setState({ step: 'totp', verificationToken, error: null, isBusy: false })
      return
    }
    if (totpCode !== undefined) setState({ step: 'totp', verificationToken, error: null, isBusy: true })
    try {
      await removeContact(channel, { verificationToken, ...(totpCode === undefined ? {} : { totpCode }) })
    } catch (error) {
      // The authenticator code is checked before the contact's proof is spent: ask it again.
      const refusal = readAuthenticatorRefusal(error)
      if (refusal !== undefined) {
        setState({ step: 'totp', verificationToken, error: refusal.message, isBusy: false })
        return
      }
      setState({
        step: 'confirm',
        error: describeAuthError(error, `Could not remove your ${texts.noun}. Try again.`),
        isBusy: false,
      })
      return
    }
    await invalidateAuthMethods()
    toast({ title: texts.done, description: `You can no longer sign in with ${contact}.` })
    onDone()
  }

  if (state.step === 'totp') {
    return (
      <AuthenticatorCodeStep
        error={state.error}
        isBusy={state.isBusy}
        submitLabel={texts.title}
        onBack={() => setState({ step: 'confirm', error: null, isBusy: false })}
        onSubmitCode={(code) => void remove(state.verificationToken, code)}
      />
    )
  }
  if (state.step === 'code') {
    return (
      <CodeEntryStep
        channel={channel}
        title={texts.checkTitle}
        sentTo={contact}
        intro="To remove it, enter the 6-digit code we sent to"
        sentAt={state.sentAt}
        error={state.error}
        isBusy={state.isBusy}
        backLabel="Back"
        onBack={() => setState({ step: 'confirm', error: null, isBusy: false })}
        onEdited={() => state.error !== null && setState({ ...state, error: null })}
        onResend={async () => {
          const otpId = await sendContactCode(channel, contact)
          setState({ ...state, otpId, sentAt: Date.now(), error: null })
        }}
        onSubmitCode={(code) => void checkCode(state, code)}
        isCurrent
      />
    )
  }
  return (
    <div>
      <DialogTitle>{texts.title}</DialogTitle>
      <DialogDescription>
        You will no longer be able to sign in with{' '}
        <strong className="break-all font-medium text-fg">{contact}</strong>. To confirm, we will send a
        6-digit code to it. Your other devices will be signed out.
      </DialogDescription>
      <FieldError id={errorId} message={state.error} />
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <DialogClose>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button
          variant="danger"
          isBusy={state.isBusy}
          onClick={() => void sendCode()}
          aria-describedby={state.error === null ? undefined : errorId}
        >
          <Trash2 aria-hidden="true" />
          Send code to remove
        </Button>
      </div>
    </div>
  )
}
