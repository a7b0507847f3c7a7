import type { SignedReceipt } from '@quicklinks/core/api/receipts'
import type { RoutingChain, RoutingToken } from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import { isSameTokenAddress } from '@quicklinks/core/native-token-address'
import { useQuery } from '@tanstack/react-query'
import { AlertTriangle, CheckCircle2, ExternalLink } from 'lucide-react'
import type { ReactNode } from 'react'
import { useParams } from 'react-router'
import { formatUnits } from 'viem'
import { getPublicConfig } from '../../lib/public-config'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { Skeleton } from '../../ui/skeleton'
import { Spinner } from '../../ui/spinner'
import { WalletAddress } from '../../ui/wallet-address'
import { useChains, useTokens } from '../routing/use-catalogue'
import { getTransactionUrl } from '../wallet/smart-wallet-session'
import { useReceiptCheck } from './check-receipt'
import { ReceiptEmailForm } from './receipt-email-form'
import { useReceipt } from './receipts-api'

/**
 * /pay/receipt/:intentId, a payment's receipt (docs/product.md#receipts): who received what, on
 * which chain, from whom, both transactions, when, and who signed it; checked in the browser
 * (signature, then the destination and source transactions on chain) before it says "Verified".
 */
export function ReceiptScreen() {
  const { intentId = '' } = useParams()
  const query = useReceipt(intentId)
  return (
    <div className="flex flex-1 items-start justify-center px-4 py-8 sm:py-16">
      <main className="w-full max-w-xl" aria-labelledby="receipt-title">
        <h1 id="receipt-title" className="mb-4 font-semibold text-2xl">
          Payment receipt
        </h1>
        {query.isPending ? (
          <Card className="grid gap-3 p-6" aria-busy="true">
            <Skeleton className="h-6 w-2/3" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
          </Card>
        ) : query.isError ? (
          <ReceiptUnavailable error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <ReceiptCard intentId={intentId} receipt={query.data} />
        )}
      </main>
    </div>
  )
}

function ReceiptUnavailable({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const code = error instanceof AppError ? error.code : 'INTERNAL'
  const message =
    code === 'NOT_FOUND'
      ? 'No payment has this id. Check the address you were given.'
      : error instanceof AppError
        ? error.userMessage
        : 'The receipt could not be loaded.'
  return (
    <Card className="grid gap-4 p-6">
      <p>{message}</p>
      {code === 'NOT_FOUND' ? null : (
        <Button variant="secondary" onClick={onRetry} className="justify-self-start">
          Try again
        </Button>
      )}
    </Card>
  )
}

function ReceiptCard({ intentId, receipt }: { intentId: string; receipt: SignedReceipt }) {
  const chains = useChains().data?.items ?? []
  const tokens = useTokens().data?.items ?? []
  const config = useQuery({ queryKey: ['public-config'], queryFn: () => getPublicConfig() })
  const provider = config.data?.routingProvider
  const message = receipt.message
  const destinationChainId = Number(message.destinationChainId)
  const sourceChainId = Number(message.sourceChainId)
  const txLink = (chainId: number, hash: string) =>
    getTransactionUrl({
      chainId,
      hash: hash as `0x${string}`,
      blockExplorerUrl: chains.find((chain) => chain.chainId === chainId)?.blockExplorerUrl,
      routingProvider: provider,
    })
  return (
    <Card className="grid gap-5 p-5 sm:p-6">
      <ReceiptStatus intentId={intentId} receipt={receipt} />
      <p className="font-semibold text-xl">
        {formatReceivedAmount(tokens, destinationChainId, message.destinationToken, message.amountReceived)}{' '}
        <span className="font-normal text-base text-muted">on {chainName(chains, destinationChainId)}</span>
      </p>
      <dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
        <Row label="Received by">
          <WalletAddress
            address={message.receiver}
            copyLabel="Copy receiver address"
            copiedDescription="The receiver's address has been copied."
          />
        </Row>
        <Row label="Paid by">
          <WalletAddress
            address={message.payer}
            copyLabel="Copy payer address"
            copiedDescription="The payer's address has been copied."
          />
          <span className="text-muted">on {chainName(chains, sourceChainId)}</span>
        </Row>
        <Row label="Source transaction">
          <HashLink hash={message.sourceTxHash} href={txLink(sourceChainId, message.sourceTxHash)} />
        </Row>
        <Row label="Destination transaction">
          <HashLink
            hash={message.destinationTxHash}
            href={txLink(destinationChainId, message.destinationTxHash)}
          />
        </Row>
        {message.invoiceId === '' ? null : <Row label="Invoice">{message.invoiceId}</Row>}
        <Row label="Issued at">
          <time dateTime={new Date(Number(message.issuedAt) * 1000).toISOString()}>
            {new Date(Number(message.issuedAt) * 1000).toLocaleString()}
          </time>
        </Row>
        <Row label="Signed by">
          <WalletAddress
            address={receipt.signer}
            copyLabel="Copy signer address"
            copiedDescription="The receipt signer's address has been copied."
          />
        </Row>
      </dl>
      <ReceiptEmailForm intentId={intentId} />
    </Card>
  )
}

function ReceiptStatus({ intentId, receipt }: { intentId: string; receipt: SignedReceipt }) {
  const check = useReceiptCheck(intentId, receipt)
  if (check.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-muted text-sm">
        <Spinner /> Checking against the chain…
      </p>
    )
  }
  if (check.isError) {
    return (
      <div role="status" className="flex flex-wrap items-center gap-2 text-sm">
        <AlertTriangle aria-hidden className="size-5 text-danger" />
        <span>The chain could not be reached to check this receipt.</span>
        <Button size="compact" variant="ghost" onClick={() => void check.refetch()}>
          Check again
        </Button>
      </div>
    )
  }
  const result = check.data
  const problem = !result.isSignatureValid
    ? `Signature invalid: this receipt was not signed by ${receipt.signer}.`
    : result.chain.isMatch
      ? null
      : `Does not match the chain: ${result.chain.reason}.`
  return problem === null ? (
    <p
      role="status"
      className="flex items-center gap-2 rounded-control bg-success-soft p-3 font-medium text-sm text-success"
    >
      <CheckCircle2 aria-hidden className="size-5" /> Verified against the chain
    </p>
  ) : (
    <p
      role="alert"
      className="flex items-start gap-2 rounded-control border border-danger p-3 text-danger text-sm"
    >
      <AlertTriangle aria-hidden className="size-5 shrink-0" /> <span className="break-words">{problem}</span>
    </p>
  )
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd className="flex min-w-0 flex-wrap items-center gap-2">{children}</dd>
    </>
  )
}

function HashLink({ hash, href }: { hash: string; href: string | null }) {
  const short = `${hash.slice(0, 10)}…${hash.slice(-8)}`
  if (href === null) return <code className="break-all font-mono">{short}</code>
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 font-mono text-accent underline-offset-2 hover:underline"
    >
      <span title={hash}>{short}</span>
      <ExternalLink aria-hidden className="size-4" />
      <span className="sr-only">(opens the transaction {hash} in a new tab)</span>
    </a>
  )
}

function chainName(chains: readonly RoutingChain[], chainId: number): string {
  return chains.find((chain) => chain.chainId === chainId)?.networkName ?? `chain ${chainId}`
}

/** "12.5 USDC" from the catalogue's token; raw units and the address when the catalogue lacks it. */
export function formatReceivedAmount(
  tokens: readonly RoutingToken[],
  chainId: number,
  tokenAddress: string,
  amount: string,
): string {
  const token = tokens.find(
    (each) => each.chainId === chainId && isSameTokenAddress(each.address, tokenAddress),
  )
  return token
    ? `${formatUnits(BigInt(amount), token.decimals)} ${token.symbol}`
    : `${amount} units of ${tokenAddress}`
}
