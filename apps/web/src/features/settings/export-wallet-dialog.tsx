import { ShieldAlert } from 'lucide-react'
import { useId, useRef, useState } from 'react'
import { useThemeStore } from '../../lib/theme-store'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { Dialog, DialogClose, DialogDescription, DialogTitle } from '../../ui/dialog'
import { useAuthModalStore } from '../auth/auth-modal-store'
import { describeAuthError } from '../auth/describe-auth-error'
import { type ExportKind, exportWalletInto, useWalletStatus } from '../auth/wallet-session'

type ExportState =
  | { status: 'base' }
  | { status: 'verifying' }
  | { status: 'success' }
  | { status: 'error'; message: string }

const kindLabels: Record<ExportKind, { option: string; action: string; shown: string }> = {
  SEED_PHRASE: { option: 'Seed phrase', action: 'Show seed phrase', shown: 'Your seed phrase' },
  PRIVATE_KEY: { option: 'Private key', action: 'Show private key', shown: 'Your private key' },
}

/**
 * 'Export wallet' (docs/product.md#wallet-export): the secret is shown by the export frame, which the SDK
 * puts into a container inside this dialog. The frame lives on the frames origin, so this page never
 * holds the words or the key; closing the dialog removes the frame and the secret with it.
 */
export function ExportWalletDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <ExportWalletBody onClose={() => onOpenChange(false)} />
    </Dialog>
  )
}

function ExportWalletBody({ onClose }: { onClose: () => void }) {
  const [kind, setKind] = useState<ExportKind>('SEED_PHRASE')
  const [state, setState] = useState<ExportState>({ status: 'base' })
  const containerRef = useRef<HTMLDivElement>(null)
  const walletStatus = useWalletStatus()
  const openAuthModal = useAuthModalStore((store) => store.open)
  const errorId = useId()
  const isWalletConnected = walletStatus === 'CONNECTED'
  // Until the SDK has read its stored session, nobody knows yet whether the wallet is connected.
  const isWalletKnown = walletStatus !== 'INITIALIZING'
  const labels = kindLabels[kind]

  const reveal = async () => {
    const container = containerRef.current
    if (container === null) return
    setState({ status: 'verifying' })
    try {
      await exportWalletInto(container, kind, useThemeStore.getState().resolved)
      setState({ status: 'success' })
    } catch (error) {
      container.replaceChildren()
      setState({
        status: 'error',
        message: describeAuthError(error, 'Could not export your wallet. Try again.'),
      })
    }
  }

  const signInAgain = () => {
    onClose()
    openAuthModal('stay')
  }

  const isShown = state.status === 'success'
  return (
    <div>
      <DialogTitle>Export wallet</DialogTitle>
      <DialogDescription>
        {isShown
          ? `${labels.shown} is shown in a secure frame that this page cannot read. Write it down and keep it offline.`
          : 'Reveal the secret that controls your wallet, to use it in another wallet app.'}
      </DialogDescription>

      {isShown ? null : (
        <div className="mt-4 flex gap-3 rounded-control border border-danger bg-danger-soft p-3 text-sm">
          <ShieldAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-danger" />
          <p>
            Anyone who sees your seed phrase or private key can take everything in this wallet. Never share
            it, and never type it into a website.
          </p>
        </div>
      )}

      {isShown ? null : (
        <fieldset className="mt-5" disabled={state.status === 'verifying'}>
          <legend className="font-medium text-sm">What to show</legend>
          <div className="mt-2 grid grid-cols-2 gap-2">
            {(Object.keys(kindLabels) as ExportKind[]).map((option) => (
              <label
                key={option}
                className={classNames(
                  'relative flex min-h-11 cursor-pointer items-center justify-center rounded-control border px-3 text-sm',
                  'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring has-[:focus-visible]:outline-offset-2',
                  kind === option
                    ? 'border-accent bg-accent-soft font-medium text-fg'
                    : 'border-border text-muted hover:bg-subtle',
                )}
              >
                <input
                  type="radio"
                  name="export-kind"
                  value={option}
                  checked={kind === option}
                  onChange={() => setKind(option)}
                  // Covers the whole option, invisible: a tap anywhere on it lands on the radio itself.
                  className="absolute inset-0 size-full cursor-pointer appearance-none rounded-control opacity-0"
                />
                {kindLabels[option].option}
              </label>
            ))}
          </div>
        </fieldset>
      )}

      {/* The SDK places the export frame here; it stays empty until the secret is requested. */}
      <div
        ref={containerRef}
        data-testid="export-frame-container"
        className={classNames(
          'overflow-hidden rounded-control [&_iframe]:block [&_iframe]:w-full [&_iframe]:border-0',
          // Tall enough for 12 words in the frame's two columns (phone) or three (wider).
          state.status === 'base' || state.status === 'error'
            ? 'hidden'
            : 'mt-5 h-[25rem] border border-border sm:h-[19rem]',
        )}
      />

      {state.status === 'error' ? (
        <p id={errorId} role="alert" className="mt-4 text-danger text-sm">
          {state.message}
        </p>
      ) : null}

      {isWalletConnected || isShown || !isWalletKnown ? null : (
        <p className="mt-4 text-muted text-sm">
          Your wallet session has ended. Sign in again to export your wallet.
        </p>
      )}

      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {isShown ? (
          <Button onClick={onClose}>Done</Button>
        ) : (
          <>
            <DialogClose>
              <Button variant="secondary">Cancel</Button>
            </DialogClose>
            {isWalletConnected || !isWalletKnown ? (
              <Button
                disabled={!isWalletKnown}
                onClick={() => void reveal()}
                isBusy={state.status === 'verifying'}
                aria-describedby={state.status === 'error' ? errorId : undefined}
              >
                {labels.action}
              </Button>
            ) : (
              <Button onClick={signInAgain}>Sign in again</Button>
            )}
          </>
        )}
      </div>
    </div>
  )
}
