import { Code } from 'lucide-react'
import { CopyButton } from '../../ui/copy-button'

// The path and network are written out here rather than imported from @quicklinks/core/api/x402,
// whose response schemas would ride along into the pay page's first chunk.

/** The link's x402 resource on this origin; a link without an amount takes `?amount=` (shown as 5). */
export function buildX402Url(
  origin: string,
  link: { alias_slug: string; amount?: string | null | undefined },
): string {
  const url = `${origin}/x402/pay/${encodeURIComponent(link.alias_slug)}`
  return typeof link.amount === 'string' && /[1-9]/.test(link.amount) ? url : `${url}?amount=5`
}

/** The copyable snippet: the stock @x402/fetch client with a viem account, allowed the link's token. */
export function buildX402Snippet(url: string, link: { chain_id: number; token_address: string }): string {
  return `import { x402Client } from '@x402/core/client'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment } from '@x402/fetch'
import { privateKeyToAccount } from 'viem/accounts'

const client = new x402Client()
registerExactEvmScheme(client, { signer: privateKeyToAccount(process.env.PRIVATE_KEY) })
// Allow this link's token (add maxAmountPerPayment, in atomic units, to cap each payment).
client.setSpendControls({
  allowedAssets: [{ network: 'eip155:${link.chain_id}', asset: '${link.token_address}' }],
})
const response = await wrapFetchWithPayment(fetch, client)('${url}')
console.log(response.status, await response.json())`
}

/**
 * "Pay from code" on the pay page (docs/api.md#x402): the link's x402 URL and a snippet for
 * software that pays (agents, scripts). Plain text in a native disclosure: it loads no wallet code
 * and nothing else, so the page's first chunk stays as light as it was.
 */
export function PayFromCode({
  link,
}: {
  link: { alias_slug: string; amount?: string | null | undefined; chain_id: number; token_address: string }
}) {
  const url = buildX402Url(window.location.origin, link)
  const snippet = buildX402Snippet(url, link)
  return (
    <details className="group mt-6 min-w-0 rounded-control border border-border text-sm">
      <summary className="flex min-h-11 cursor-pointer items-center gap-2 px-4 py-2 font-medium text-muted hover:text-fg">
        <Code aria-hidden="true" className="size-4" />
        Pay from code (x402)
      </summary>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-3 border-border border-t px-4 py-3">
        <p className="text-muted">
          Agents and scripts pay this link over HTTP with x402: a GET answers 402 with the payment terms, the
          client signs a USDC authorization and asks again.
        </p>
        <div className="flex items-start gap-1">
          <code className="min-w-0 flex-1 break-all rounded-control bg-subtle px-3 py-2 font-mono text-xs">
            {url}
          </code>
          <CopyButton text={url} label="Copy x402 URL" />
        </div>
        <div className="flex items-start gap-1">
          {/* Wrapped rather than scrolled, so a phone shows it all and no scroll region needs focus. */}
          <pre className="min-w-0 flex-1 whitespace-pre-wrap break-all rounded-control bg-subtle px-3 py-2 font-mono text-xs">
            <code>{snippet}</code>
          </pre>
          <CopyButton text={snippet} label="Copy code snippet" />
        </div>
        <p className="text-muted text-xs">
          npm install @x402/fetch @x402/evm @x402/core viem. Paying from another chain works too: the 402
          lists one way to pay per chain.
        </p>
      </div>
    </details>
  )
}
