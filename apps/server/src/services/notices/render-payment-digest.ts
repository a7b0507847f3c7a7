import type { EmailMessage } from '@quicklinks/runtime/delivery/create-delivery'
import { formatUnits } from 'viem'
import { escapeHtml } from '../mail/escape-html.ts'
import type { DigestPayment, DigestTotal } from './payment-digests-repository.ts'

/** What the catalogue says of a token and a chain, when it knows them. */
export type DigestNames = {
  token(chainId: number, address: string): { symbol: string; decimals: number } | undefined
  chain(chainId: number): string | undefined
}

/**
 * The daily payment digest (docs/api.md#notices): the day's count, the totals per token and a line
 * per payment (time, amount, chain, link, payer), then the dashboard's Payments tab and Settings
 * (where the digest is turned off). It goes to the links' owner only, so it may name their links.
 */
export function renderPaymentDigest(input: {
  to: string
  day: string
  count: number
  totals: DigestTotal[]
  lines: DigestPayment[]
  names: DigestNames
  publicOrigin: string
}): EmailMessage {
  const { names } = input
  const amount = (chainId: number, token: string, units: bigint): string => {
    const found = names.token(chainId, token)
    const chain = names.chain(chainId) ?? `chain ${chainId}`
    return found
      ? `${formatUnits(units, found.decimals)} ${found.symbol} on ${chain}`
      : `${units} units of token ${token} on ${chain}`
  }
  const paymentsWord = input.count === 1 ? 'payment' : 'payments'
  const dashboardUrl = `${input.publicOrigin}/dashboard/payments`
  const settingsUrl = `${input.publicOrigin}/settings`
  const text: string[] = [
    `Your Quick Links links received ${input.count} verified ${paymentsWord} on ${input.day} (UTC).`,
    '',
    'Totals:',
    ...input.totals.map(
      (total) =>
        `  ${amount(total.toChainId, total.toToken, total.amountUnits)} (${total.payments} ${total.payments === 1 ? 'payment' : 'payments'})`,
    ),
    '',
    'Payments:',
    ...input.lines.map(
      (line) =>
        `  ${line.finalAt.toISOString().slice(11, 16)} UTC  ${amount(line.toChainId, line.toToken, line.amountUnits)}  to "${line.linkAlias}"  from ${line.payer}`,
    ),
    ...(input.count > input.lines.length ? [`  … and ${input.count - input.lines.length} more`] : []),
    '',
    `Every payment, with its receipt: ${dashboardUrl}`,
    `To stop this daily mail, turn the digest off in Settings: ${settingsUrl}`,
  ]
  const links = new Map([
    [escapeHtml(dashboardUrl), `<a href="${escapeHtml(dashboardUrl)}">${escapeHtml(dashboardUrl)}</a>`],
    [escapeHtml(settingsUrl), `<a href="${escapeHtml(settingsUrl)}">${escapeHtml(settingsUrl)}</a>`],
  ])
  const html = `<p>${text
    .map((line) => {
      if (line === '') return '</p><p>'
      let escaped = escapeHtml(line)
      for (const [url, anchor] of links) escaped = escaped.replace(url, anchor)
      return `${escaped}<br>`
    })
    .join('')}</p>`
  return {
    to: input.to,
    subject: `Your payments on ${input.day}: ${input.count} ${paymentsWord}`,
    text: `${text.join('\n')}\n`,
    html,
  }
}
