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
