import type { DepositResponse, DepositTransferResponse } from '@quicklinks/core/api/deposits'

/** A transfer into a deposit as one sentence: how much of what arrived on which network, and what became of it. Pure. */
export function describeTransfer(deposit: DepositResponse, transfer: DepositTransferResponse): string {
  const chain = deposit.chains.find((candidate) => candidate.chainId === transfer.chainId)
  const token = chain?.tokens.find(
    (candidate) => candidate.address.toLowerCase() === transfer.token.toLowerCase(),
  )
  const amount = token ? formatUnits(BigInt(transfer.amount), token.decimals) : transfer.amount
  const what = `${amount} ${token?.symbol ?? 'of an unlisted token'} on ${chain?.name ?? `chain ${transfer.chainId}`}`
  switch (transfer.state) {
    case 'detected':
      return transfer.note === null
        ? `Received ${what}: on its way to the receiver.`
        : `Received ${what}: ${transfer.note}`
    case 'routing':
      return `Received ${what}: on its way to the receiver.`
    case 'routed':
      return `Received ${what}: sent to the receiver.`
    case 'refunding':
      return `Received ${what}: being refunded.`
    case 'refunded':
      return `Received ${what}: refunded.`
    case 'failed':
      return `Received ${what}: ${transfer.error ?? 'it could not be moved'}`
    case 'dropped':
      return `Seen ${what}, then gone from the chain in a reorg: nothing arrived, nothing is sent.`
    default: {
      const unknown: never = transfer.state
      return unknown
    }
  }
}

/** An integer amount in smallest units as a decimal string, trailing zeros dropped. */
export function formatUnits(units: bigint, decimals: number): string {
  const text = units.toString().padStart(decimals + 1, '0')
  const whole = text.slice(0, text.length - decimals)
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '')
  return fraction === '' ? whole : `${whole}.${fraction}`
}

/** The deposit status page's heading: what the payer should know first. Pure. */
export function getDepositTitle(deposit: DepositResponse): string {
  const states = deposit.transfers.map((transfer) => transfer.state).filter((state) => state !== 'dropped')
  if (states.length === 0) return deposit.state === 'open' ? 'Waiting for your transfer' : 'Deposit expired'
  if (states.every((state) => state === 'routed')) return 'Sent to the receiver'
  if (states.every((state) => state === 'refunded')) return 'Refunded'
  if (states.some((state) => state === 'refunding' || state === 'refunded')) return 'Being refunded'
  return 'Transfer received'
}

/**
 * The senders who may still name another refund address (docs/decisions/0032): none when the
 * deposit's refund address is fixed in its contract; else each sender of a transfer that waits or
 * failed (its refund is not sent), with the chain of its first such transfer. Pure.
 */
export function listRefundSenders(
  deposit: DepositResponse,
): { sender: string; chainId: number; refundTo: string }[] {
  if (deposit.refundAddress !== null) return []
  const senders = new Map<string, { sender: string; chainId: number; refundTo: string }>()
  for (const transfer of deposit.transfers) {
    if (transfer.sender === null || !['detected', 'failed'].includes(transfer.state)) continue
    const key = transfer.sender.toLowerCase()
    if (!senders.has(key)) {
      senders.set(key, {
        sender: transfer.sender,
        chainId: transfer.chainId,
        refundTo: transfer.refundTo ?? transfer.sender,
      })
    }
  }
  return [...senders.values()]
}
