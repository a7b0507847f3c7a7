import { ExternalLink } from 'lucide-react'
import { maskMiddle } from '../../lib/format'

/** A hash keeps 6 characters at each end (docs/product.md#addresses-and-hashes). */
export function maskHash(hash: string): string {
  return maskMiddle(hash, 6, 6)
}

/**
 * One transaction of a payment as a definition-list row: its label, and its masked hash linking
 * to the explorer in a new tab (plain text when the chain has no explorer). Sits inside a `<dl>`.
 */
export function TxLink({ label, hash, url }: { label: string; hash: string; url: string | null }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="text-muted">{label}</dt>
      <dd className="shrink-0 whitespace-nowrap font-mono">
        {url === null ? (
          <span title={hash}>{maskHash(hash)}</span>
        ) : (
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            title={hash}
            className="inline-flex min-h-11 items-center gap-1 text-accent underline-offset-2 hover:underline"
          >
            {maskHash(hash)}
            <ExternalLink aria-hidden="true" className="size-3.5" />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        )}
      </dd>
    </div>
  )
}
