import { Check, Copy } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import { getInputClassName } from '../../ui/input-class-name'

/**
 * An endpoint's signing secret shown once (after 'Add endpoint' or 'Rotate secret'): read-only,
 * with a copy button and 'Done'. The server keeps no way to show it again.
 */
export function WebhookSecretView({ secret, onDone }: { secret: string; onDone: () => void }) {
  const id = useId()
  const [isCopied, setIsCopied] = useState(false)

  const copy = async () => {
    await navigator.clipboard.writeText(secret)
    setIsCopied(true)
  }

  return (
    <div className="mt-4 grid gap-4">
      <label htmlFor={`${id}-secret`} className="font-medium text-sm">
        Signing secret
      </label>
      <input
        id={`${id}-secret`}
        readOnly
        className={`${getInputClassName(false)} font-mono`}
        value={secret}
        onFocus={(event) => event.target.select()}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={() => void copy()}>
          {isCopied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {isCopied ? 'Copied' : 'Copy secret'}
        </Button>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </div>
      <p role="status" className="sr-only">
        {isCopied ? 'Signing secret copied' : ''}
      </p>
    </div>
  )
}
