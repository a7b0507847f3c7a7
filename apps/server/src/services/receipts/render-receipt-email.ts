import type { ReceiptMessage } from '@quicklinks/core/api/receipts'
import type { EmailMessage } from '@quicklinks/runtime/delivery/create-delivery'
import { formatUnits } from 'viem'
import { escapeHtml } from '../mail/escape-html.ts'

/** What the catalogue says of the credited token and the chains, when it knows them. */
export type ReceiptEmailNames = {
  token: { symbol: string; decimals: number } | undefined
  destinationChainName: string | undefined
  sourceChainName: string | undefined
}

/**
 * The receipt e-mail: a fixed text in which nothing comes from a person (no link name, no message,
 * no address typed on the form): amounts, chains and hashes read from the chain and the catalogue,
 * and the receipt page's address. So the payer's form cannot carry anyone's words to a stranger.
 */
export function renderReceiptEmail(input: {
  to: string
  role: 'payee' | 'payer'
  intentId: string
  message: ReceiptMessage
  names: ReceiptEmailNames
  publicOrigin: string
}): EmailMessage {
  const { message, names } = input
  const amount = names.token
    ? `${formatUnits(message.amountReceived, names.token.decimals)} ${names.token.symbol}`
    : `${message.amountReceived} units of token ${message.destinationToken}`
  const destinationChain = names.destinationChainName ?? `chain ${message.destinationChainId}`
  const sourceChain = names.sourceChainName ?? `chain ${message.sourceChainId}`
  const receiptUrl = `${input.publicOrigin}/pay/receipt/${input.intentId}`
  const subject = input.role === 'payee' ? `Payment received: ${amount}` : `Your payment receipt: ${amount}`
  const lines = [
    input.role === 'payee'
      ? `A payment to your Quick Links link was verified on chain.`
      : `Here is the receipt of your payment, verified on chain.`,
    '',
    `Received: ${amount} on ${destinationChain}`,
    `Receiver: ${message.receiver}`,
    `Payer: ${message.payer} on ${sourceChain}`,
    `Source transaction: ${message.sourceTxHash}`,
    `Destination transaction: ${message.destinationTxHash}`,
    `Final at: ${new Date(Number(message.issuedAt) * 1000).toISOString()}`,
    '',
    `The signed receipt, which anyone can check against the chain: ${receiptUrl}`,
  ]
  const text = `${lines.join('\n')}\n`
  const html = `<p>${lines
    .map((line) => (line === '' ? '</p><p>' : `${escapeHtml(line)}<br>`))
    .join('')}</p>`.replace(
    escapeHtml(receiptUrl),
    `<a href="${escapeHtml(receiptUrl)}">${escapeHtml(receiptUrl)}</a>`,
  )
  return { to: input.to, subject, text, html }
}
