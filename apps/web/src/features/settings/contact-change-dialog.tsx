import { useReducer } from 'react'
import { Dialog } from '../../ui/dialog'
import { toast } from '../../ui/use-toast'
import { describeAuthError } from '../auth/describe-auth-error'
import { checkEmail, checkPhone } from '../auth/validate-contact'
import {
  type ContactChannel,
  changeContact,
  sendContactCode,
  verifyContactCode,
} from '../auth/wallet-session'
import {
  AuthenticatorCodeStep,
  readAuthenticatorRefusal,
  useHasAuthenticatorApp,
} from './authenticator-code-step'
import { CodeEntryStep } from './code-entry-step'
import {
  type ContactChangeStep,
  channelTexts,
  initialContactChangeStep,
  reduceContactChange,
} from './contact-change-state'
import { ContactEntryStep } from './contact-entry-step'
import { useAuthMethods, useInvalidateAuthMethods } from './use-auth-methods'

export type ContactChangeDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  channel: ContactChannel
  /** The account's contact on this channel now, or null when it has none (then it is an add). */
  current: string | null
}

/**
 * 'Change email' / 'Add phone number' and the like (docs/signer.md#contact-change): a code to the
 * new contact, then one to the current contact when there is one, then the change, which the
 * frames origin builds and stamps. Success closes the dialog with a toast; every refusal (an
 * address of another account, a wrong or locked code) is shown beside the field it concerns.
 */
export function ContactChangeDialog({ open, onOpenChange, channel, current }: ContactChangeDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} size="sm">
      {/* Mounted only while open, so every opening starts from an empty field. */}
      {open ? (
        <ContactChangeBody channel={channel} current={current} onDone={() => onOpenChange(false)} />
      ) : null}
    </Dialog>
  )
}

function ContactChangeBody({
  channel,
  current,
  onDone,
}: {
  channel: ContactChannel
  current: string | null
  onDone: () => void
}) {
  const [state, dispatch] = useReducer(reduceContactChange, initialContactChangeStep)
  const invalidateAuthMethods = useInvalidateAuthMethods()
  const { methods } = useAuthMethods()
  const hasTotp = useHasAuthenticatorApp()
  const texts = channelTexts[channel]
  // Who confirms the change (docs/signer.md#step-up): the current contact on this channel; for a
  // first one, the account's other contact (a new way in is not added on the session alone).
  const otherAddress = channel === 'email' ? (methods?.phone ?? null) : (methods?.email ?? null)
  const confirmer: { channel: ContactChannel; address: string } | null =
    current !== null
      ? { channel, address: current }
      : otherAddress === null
        ? null
        : { channel: channel === 'email' ? 'sms' : 'email', address: otherAddress }

  const submit = async (
    contact: string,
    verificationToken: string,
    previous: string | undefined,
    totpCode?: string,
  ) => {
    const totpStep = { type: 'totpAsked', contact, verificationToken, previous } as const
    if (hasTotp && totpCode === undefined) {
      dispatch({ ...totpStep, error: null, isBusy: false })
      return
    }
    if (totpCode !== undefined) dispatch({ ...totpStep, error: null, isBusy: true })
    try {
      await changeContact({
        channel,
        contact,
        verificationToken,
        ...(previous === undefined ? {} : { previousContactVerificationToken: previous }),
        ...(totpCode === undefined ? {} : { totpCode }),
      })
    } catch (error) {
      // The authenticator code is checked before the contacts' proofs are spent: ask it again.
      const refusal = readAuthenticatorRefusal(error)
      if (refusal !== undefined) {
        dispatch({ ...totpStep, error: refusal.message, isBusy: false })
        return
      }
      // Whatever refused it (an address of another account, a spent proof), the proofs are used
      // up: start again from the contact, with the reason beside it.
      await invalidateAuthMethods()
      dispatch({
        type: 'restarted',
        input: contact,
        error: describeAuthError(error, `Could not change your ${texts.noun}. Try again.`),
      })
      return
    }
    await invalidateAuthMethods()
    toast({
      title: current === null ? texts.added : texts.changed,
      description:
        current === null
          ? `You can now sign in with ${contact}.`
          : `You now sign in with ${contact}. Your other devices were signed out.`,
    })
    onDone()
  }

  const sendToNew = async (input: string) => {
    const check = channel === 'email' ? checkEmail(input) : checkPhone(input)
    if (!check.ok) {
      dispatch({ type: 'restarted', input, error: check.message })
      return
    }
    if (current !== null && check.value.toLowerCase() === current.toLowerCase()) {
      dispatch({ type: 'restarted', input, error: texts.same })
      return
    }
    dispatch({ type: 'busy' })
    try {
      const otpId = await sendContactCode(channel, check.value)
      dispatch({ type: 'newCodeSent', contact: check.value, otpId, sentAt: Date.now() })
    } catch (error) {
      dispatch({
        type: 'restarted',
        input,
        error: describeAuthError(error, 'Could not send the code. Try again.'),
      })
    }
  }

  const verifyNew = async (step: Extract<ContactChangeStep, { step: 'newCode' }>, code: string) => {
    dispatch({ type: 'busy' })
    let verificationToken: string
    try {
      verificationToken = await verifyContactCode(step.otpId, code)
    } catch (error) {
      dispatch({ type: 'refused', error: describeAuthError(error, 'Could not check the code. Try again.') })
      return
    }
    if (confirmer === null) {
      await submit(step.contact, verificationToken, undefined)
      return
    }
    try {
      const otpId = await sendContactCode(confirmer.channel, confirmer.address)
      dispatch({
        type: 'confirmCodeSent',
        contact: step.contact,
        verificationToken,
        confirmer,
        otpId,
        sentAt: Date.now(),
      })
    } catch (error) {
      dispatch({
        type: 'refused',
        error: describeAuthError(error, `Could not send a code to ${confirmer.address}. Try again.`),
      })
    }
  }

  const verifyCurrent = async (step: Extract<ContactChangeStep, { step: 'currentCode' }>, code: string) => {
    dispatch({ type: 'busy' })
    let previous: string
    try {
      previous = await verifyContactCode(step.otpId, code)
    } catch (error) {
      dispatch({ type: 'refused', error: describeAuthError(error, 'Could not check the code. Try again.') })
      return
    }
    await submit(step.contact, step.verificationToken, previous)
  }

  switch (state.step) {
    case 'contact':
      return (
        <ContactEntryStep
          channel={channel}
          current={current}
          state={state}
          onEdit={(input) => dispatch({ type: 'edited', input })}
          onSubmit={(input) => void sendToNew(input)}
        />
      )
    case 'newCode':
      return (
        <CodeEntryStep
          key="new"
          channel={channel}
          title={texts.checkTitle}
          sentTo={state.contact}
          intro="Enter the 6-digit code we sent to"
          sentAt={state.sentAt}
          error={state.error}
          isBusy={state.isBusy}
          backLabel={texts.useOther}
          onBack={() => dispatch({ type: 'back' })}
          onEdited={() => dispatch({ type: 'errorCleared' })}
          onResend={async () => {
            const otpId = await sendContactCode(channel, state.contact)
            dispatch({ type: 'resent', otpId, sentAt: Date.now() })
          }}
          onSubmitCode={(code) => void verifyNew(state, code)}
        />
      )
    case 'currentCode':
      return (
        <CodeEntryStep
          key="current"
          channel={state.confirmer.channel}
          title="Confirm it’s you"
          sentTo={state.confirmer.address}
          intro={
            current === null
              ? `To add ${state.contact} as a way to sign in, enter the 6-digit code we sent to`
              : `To move your sign-in to ${state.contact}, enter the 6-digit code we sent to your current ${texts.noun}`
          }
          sentAt={state.sentAt}
          error={state.error}
          isBusy={state.isBusy}
          backLabel={texts.useOther}
          onBack={() => dispatch({ type: 'back' })}
          onEdited={() => dispatch({ type: 'errorCleared' })}
          onResend={async () => {
            const otpId = await sendContactCode(state.confirmer.channel, state.confirmer.address)
            dispatch({ type: 'resent', otpId, sentAt: Date.now() })
          }}
          onSubmitCode={(code) => void verifyCurrent(state, code)}
          isCurrent
        />
      )
    case 'totp':
      return (
        <AuthenticatorCodeStep
          error={state.error}
          isBusy={state.isBusy}
          submitLabel={current === null ? texts.add : texts.change}
          onBack={() => dispatch({ type: 'back' })}
          onSubmitCode={(code) => void submit(state.contact, state.verificationToken, state.previous, code)}
        />
      )
    default: {
      const unreachable: never = state
      return unreachable
    }
  }
}
