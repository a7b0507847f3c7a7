import { KeyRound } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import { describeAuthError } from './describe-auth-error'
import { FieldError } from './field-error'
import { checkEmail } from './validate-contact'
import { connectWithPasskey, describePasskeyError } from './wallet-passkeys'

export type PasskeySignInProps = {
  /** The e-mail typed above, if any: a new passkey is named after it (else 'anonymous'). */
  email: string
  /** The rest of the panel is busy (sending a mail). */
  disabled: boolean
  /** The wallet is connected; the panel opens the app session. */
  onConnected: (isNewUser: boolean) => void
}

/**
 * The sign-in panel's passkey part: 'Sign in with passkey' (any passkey of this site; the account
 * is the passkey's) and 'Create an account with a passkey'. The error of either shows under them.
 */
export function PasskeySignIn({ email, disabled, onConnected }: PasskeySignInProps) {
  const errorId = useId()
  const [busy, setBusy] = useState<'signIn' | 'signUp' | null>(null)
  const [error, setError] = useState<string | null>(null)

  const run = async (createNew: boolean) => {
    if (busy !== null) return
    setBusy(createNew ? 'signUp' : 'signIn')
    setError(null)
    try {
      const check = checkEmail(email)
      const { isNewUser } = await connectWithPasskey({
        createNew,
        ...(check.ok ? { email: check.value } : {}),
      })
      onConnected(isNewUser)
    } catch (caught) {
      setError(
        describePasskeyError(caught) ?? describeAuthError(caught, 'Could not use your passkey. Try again.'),
      )
    } finally {
      setBusy(null)
    }
  }

  return (
    <div>
      <Button
        variant="secondary"
        className="w-full"
        isBusy={busy === 'signIn'}
        disabled={disabled || busy !== null}
        aria-describedby={error === null ? undefined : errorId}
        onClick={() => void run(false)}
      >
        <KeyRound aria-hidden="true" />
        Sign in with passkey
      </Button>
      <Button
        variant="ghost"
        className="mt-2 w-full"
        isBusy={busy === 'signUp'}
        disabled={disabled || busy !== null}
        aria-describedby={error === null ? undefined : errorId}
        onClick={() => void run(true)}
      >
        Create an account with a passkey
      </Button>
      <FieldError id={errorId} message={error} />
    </div>
  )
}
