import { Check, Copy } from 'lucide-react'
import { useEffect, useState } from 'react'

/**
 * An icon button that copies `text` (docs/product.md#addresses-and-hashes): a tick for 2 s and
 * "Copied" to screen readers. A clipboard the browser refuses fails silently: the text it copies is
 * always shown beside it, selectable. `label` names what it copies ("Copy receiver address").
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timeout = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(timeout)
  }, [copied])
  return (
    <>
      <button
        type="button"
        aria-label={label}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text)
            setCopied(true)
          } catch {
            // Refused or unavailable: the text stays on screen to select.
          }
        }}
        className="inline-flex size-11 shrink-0 items-center justify-center rounded-control text-muted hover:bg-subtle hover:text-fg [&_svg]:size-4"
      >
        {copied ? <Check aria-hidden="true" className="text-success" /> : <Copy aria-hidden="true" />}
      </button>
      <span aria-live="polite" className="sr-only">
        {copied ? 'Copied' : ''}
      </span>
    </>
  )
}
