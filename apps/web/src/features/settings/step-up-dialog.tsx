import type { StepUp } from '@quicklinks/wallet/signer-types'
import { KeyRound } from 'lucide-react'
import { type FormEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react'
import { Button } from '../../ui/button'
import { Dialog, DialogClose, DialogDescription, DialogTitle } from '../../ui/dialog'
import { getInputClassName } from '../../ui/input-class-name'
import { describeAuthError } from '../auth/describe-auth-error'
import { FieldError } from '../auth/field-error'
import { getProviderName, reauthenticateWithProvider } from '../auth/wallet-oauth'
import { type ContactChannel, sendContactCode, verifyContactCode } from '../auth/wallet-session'
import { normalizeAuthenticatorCode, useHasAuthenticatorApp } from './authenticator-code-step'
import { useAuthMethods } from './use-auth-methods'

type Pending = { purpose: string; resolve: (stepUp: StepUp | null) => void }

/**
 * "Confirm it's you" before a change of a way in (docs/signer.md#step-up): `requestStepUp(purpose)`
 * opens the dialog and resolves with the step-up the user gave (a code sent to one of the
 * account's contacts, or one of its passkeys; plus the authenticator app's code when it has one),
 * or null when they cancelled. Render `stepUpDialog` once in the section.
 */
export function useStepUp(): {
  requestStepUp: (purpose: string) => Promise<StepUp | null>
  stepUpDialog: ReactNode
} {
  const [pending, setPending] = useState<Pending | null>(null)
  const requestStepUp = useCallback(
    (purpose: string) => new Promise<StepUp | null>((resolve) => setPending({ purpose, resolve })),
    [],
  )
  const finish = (stepUp: StepUp | null) => {
    pending?.resolve(stepUp)
    setPending(null)
  }
  const stepUpDialog = (
    <Dialog
      open={pending !== null}
      onOpenChange={(open) => {
        if (!open) finish(null)
      }}
      size="sm"
    >
      {pending === null ? null : <StepUpBody purpose={pending.purpose} onDone={finish} />}
    </Dialog>
  )
  return { requestStepUp, stepUpDialog }
}

type Contact = { channel: ContactChannel; address: string }

function StepUpBody({ purpose, onDone }: { purpose: string; onDone: (stepUp: StepUp | null) => void }) {
  const { methods } = useAuthMethods()
  const contacts: Contact[] = [
    ...(methods?.email ? [{ channel: 'email' as const, address: methods.email }] : []),
    ...(methods?.phone ? [{ channel: 'sms' as const, address: methods.phone }] : []),
  ]
  const hasPasskeys = (methods?.passkeys.length ?? 0) > 0
  // One button per provider, whichever identity of it is linked (its popup signs in to one of them).
  const providers = [
    ...new Set(
      (methods?.oauthProviders ?? []).flatMap((linked) =>
        linked.providerId === null ? [] : [linked.providerId],
      ),
    ),
  ]
  const hasTotp = useHasAuthenticatorApp()
  const [sent, setSent] = useState<{ otpId: string; contact: Contact } | null>(null)
  const [code, setCode] = useState('')
  const [totpCode, setTotpCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [isBusy, setIsBusy] = useState(false)
  const codeId = useId()
  const totpId = useId()
  const errorId = useId()
  const codeRef = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (sent !== null) codeRef.current?.focus()
  }, [sent])

  const withTotp = (stepUp: StepUp): StepUp =>
    hasTotp ? { ...stepUp, totpCode: normalizeAuthenticatorCode(totpCode) } : stepUp

  const send = async (contact: Contact) => {
    setIsBusy(true)
    setError(null)
    try {
      setSent({ otpId: await sendContactCode(contact.channel, contact.address), contact })
    } catch (failure) {
      setError(describeAuthError(failure, 'Could not send the code. Try again.'))
    } finally {
      setIsBusy(false)
    }
  }

  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (sent === null || isBusy) return
    if (hasTotp && totpCode.trim() === '') {
      setError('Enter the code from your authenticator app too.')
      return
    }
    setIsBusy(true)
    setError(null)
    try {
      const verificationToken = await verifyContactCode(sent.otpId, code.trim())
      onDone(withTotp({ verificationToken }))
    } catch (failure) {
      setError(describeAuthError(failure, 'Could not check the code. Try again.'))
      setIsBusy(false)
    }
  }

  const confirmWithProvider = async (providerId: string) => {
    if (hasTotp && totpCode.trim() === '') {
      setError('Enter the code from your authenticator app too.')
      return
    }
    setIsBusy(true)
    setError(null)
    try {
      onDone(withTotp(await reauthenticateWithProvider(providerId)))
    } catch (failure) {
      setError(describeAuthError(failure, 'The provider did not confirm it’s you. Try again.'))
      setIsBusy(false)
    }
  }

  const confirmWithPasskey = () => {
    if (hasTotp && totpCode.trim() === '') {
      setError('Enter the code from your authenticator app too.')
      return
    }
    onDone(withTotp({ usePasskey: true, passkeyIds: (methods?.passkeys ?? []).map((passkey) => passkey.id) }))
  }

  return (
    <div>
      <DialogTitle>Confirm it’s you</DialogTitle>
      <DialogDescription>
        {purpose} changes how you sign in. Confirm it’s you with a way you already sign in.
      </DialogDescription>
      <form className="mt-6" onSubmit={(event) => void confirm(event)} noValidate>
        {sent === null ? (
          <div className="flex flex-col gap-3">
            {contacts.map((contact) => (
              <Button
                key={contact.channel}
                variant="secondary"
                isBusy={isBusy}
                onClick={() => void send(contact)}
              >
                Send a code to {contact.address}
              </Button>
            ))}
            {providers.map((providerId) => (
              <Button
                key={providerId}
                variant="secondary"
                isBusy={isBusy}
                onClick={() => void confirmWithProvider(providerId)}
              >
                Sign in again with {getProviderName(providerId)}
              </Button>
            ))}
          </div>
        ) : (
          <>
            <label htmlFor={codeId} className="font-medium text-sm">
              Code
            </label>
            <p className="mt-1 text-muted text-sm">
              Enter the 6-digit code we sent to <span className="break-all">{sent.contact.address}</span>.
            </p>
            <input
              ref={codeRef}
              id={codeId}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              aria-invalid={error !== null || undefined}
              aria-describedby={errorId}
              className={`mt-2 ${getInputClassName(error !== null)}`}
            />
          </>
        )}
        {hasTotp ? (
          <div className="mt-4">
            <label htmlFor={totpId} className="font-medium text-sm">
              Authenticator code
            </label>
            <input
              id={totpId}
              name="totp"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={totpCode}
              onChange={(event) => setTotpCode(event.target.value)}
              aria-describedby={errorId}
              className={`mt-2 ${getInputClassName(false)}`}
            />
          </div>
        ) : null}
        <FieldError id={errorId} message={error} />
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <DialogClose>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          {hasPasskeys ? (
            <Button variant="secondary" onClick={confirmWithPasskey}>
              <KeyRound aria-hidden="true" />
              Use a passkey
            </Button>
          ) : null}
          {sent === null ? null : (
            <Button type="submit" isBusy={isBusy}>
              Confirm
            </Button>
          )}
        </div>
      </form>
    </div>
  )
}
