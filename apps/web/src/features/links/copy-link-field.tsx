import { Check, Copy } from 'lucide-react'
import { useEffect, useState } from 'react'
import { classNames } from '../../ui/class-names'
import { toast } from '../../ui/use-toast'

/** The copy toast's 2000 ms (docs/product.md#constants). */
export const copyToastMs = 2000

/**
 * Copies a pay link and says so: a check in place, to screen readers and with the 'Link Copied'
 * toast. A failing copy is silent (docs/product.md#addresses-and-hashes). Resolves true when the text reached
 * the clipboard.
 */
export async function copyPayLink(url: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(url)
  } catch {
    return false
  }
  toast({
    title: 'Link Copied',
    description: 'The payable link has been copied to your clipboard.',
    duration: copyToastMs,
  })
  return true
}

/** The link as text that wraps (it is read whole on a phone) with a copy button (the ready page). */
export function CopyLinkField({ url, className }: { url: string; className?: string }) {
  const [isCopied, setIsCopied] = useState(false)
  useEffect(() => {
    if (!isCopied) return
    const timeout = setTimeout(() => setIsCopied(false), copyToastMs)
    return () => clearTimeout(timeout)
  }, [isCopied])
  return (
    <div
      className={classNames(
        'flex items-center gap-2 rounded-control border border-border bg-subtle p-1 pl-3',
        className,
      )}
    >
      <p className="min-w-0 flex-1 break-all py-2 text-left font-mono text-sm" title="Payment link">
        {url}
      </p>
      <button
        type="button"
        aria-label="Copy link"
        onClick={async () => setIsCopied(await copyPayLink(url))}
        className="inline-flex size-11 shrink-0 items-center justify-center rounded-control text-muted hover:bg-surface hover:text-fg"
      >
        {isCopied ? (
          <Check aria-hidden="true" className="size-5 text-success" />
        ) : (
          <Copy aria-hidden="true" className="size-5" />
        )}
      </button>
      <span aria-live="polite" className="sr-only">
        {isCopied ? 'Copied' : ''}
      </span>
    </div>
  )
}
