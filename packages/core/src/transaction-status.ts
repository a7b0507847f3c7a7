/**
 * A provider's raw status word as a payment state, rules in order (docs/product.md#payment-states): a partial
 * delivery or a refund is a failure for the payer, although Squid calls the first a success.
 */
export type NormalizedTransactionStatus = 'submitted' | 'bridging' | 'success' | 'failed'

/** What a raw provider status means for the payer, and whether the funds went back to them. */
export type TransactionStatusReading = {
  status: NormalizedTransactionStatus
  /** Squid's refund/refunded, our relayer's refund: the payer got the funds back. */
  isRefunded: boolean
  /** Squid's partial_success: delivered, but not as the link's token on the link's chain. */
  isPartial: boolean
}

const bridgingWords = [
  'needs_gas',
  'ongoing',
  'bridge',
  'route',
  'pend',
  'wait',
  'process',
  'confirm',
  'progress',
  'send',
]

/**
 * Normalises a raw status (any case): fail/error → failed; partial → failed; refund → failed
 * (refunded); success/complete/done → success; needs_gas, ongoing and the bridging words →
 * bridging; submit/created/empty/not_found → submitted; anything else → submitted.
 */
export function readTransactionStatus(raw: string | null | undefined): TransactionStatusReading {
  const text = (raw ?? '').trim().toLowerCase()
  const reading = (status: NormalizedTransactionStatus, flags: Partial<TransactionStatusReading> = {}) => ({
    status,
    isRefunded: false,
    isPartial: false,
    ...flags,
  })
  if (text.includes('fail') || text.includes('error')) return reading('failed')
  if (text.includes('partial')) return reading('failed', { isPartial: true })
  if (text.includes('refund')) return reading('failed', { isRefunded: true })
  if (text.includes('success') || text.includes('complete') || text === 'done') return reading('success')
  if (bridgingWords.some((word) => text.includes(word))) return reading('bridging')
  return reading('submitted')
}

/** docs/product.md#step-status: ok (success, done, ok), fail (fail, error), else pending. */
export function readStepStatus(raw: string | null | undefined): 'ok' | 'fail' | 'pending' {
  const text = (raw ?? '').toLowerCase()
  if (text.includes('success') || text.includes('done') || text.includes('ok')) return 'ok'
  if (text.includes('fail') || text.includes('error')) return 'fail'
  return 'pending'
}
