import { type TransactionRecordResponse, transactionRecordSchema } from '@quicklinks/core/api/transactions'

const emptyToken = { chainId: 1, address: `0x${'0'.repeat(40)}`, symbol: '', decimals: 18, logoURI: '' }

/**
 * A transaction record as the API answers it (docs/api.md#transaction-record), for tests: every
 * field the contract names, with `overrides` on top; a route action or step status may give only the fields the
 * test is about (its tokens' symbols, say). Parsed by the record's schema, so a test never feeds
 * the modal a record the server could not send. Throws the ZodError when the overrides break it.
 */
export function buildTransactionRecordAnswer(
  overrides: Record<string, unknown> = {},
): TransactionRecordResponse {
  const routePath = (overrides.route_path ?? []) as Record<string, unknown>[]
  const routeStatus = (overrides.route_status ?? []) as Record<string, unknown>[]
  return transactionRecordSchema.parse({
    id: 'r',
    intent_id: '0x1',
    from_chain_id: 8453,
    to_chain_id: 8453,
    source_tx_hash: null,
    dest_tx_hash: null,
    request_id: null,
    transaction_request: { to: `0x${'b'.repeat(40)}`, target: `0x${'b'.repeat(40)}`, data: '0x', value: '0' },
    status_raw: null,
    status: 'submitted',
    is_refunded: false,
    to_amount_wei: null,
    time_spent_ms: null,
    from_chain_tx_url: null,
    to_chain_tx_url: null,
    gas_status: null,
    is_gmp_transaction: false,
    axelar_transaction_url: null,
    error_message: null,
    create_date: '2026-01-01T00:00:00Z',
    update_date: '2026-01-01T00:00:00Z',
    ...overrides,
    route_status: routeStatus.map((step) => ({
      type: 'swap',
      chainId: 8453,
      txHash: null,
      status: 'pending',
      ...step,
    })),
    route_path: routePath.map((action) => ({
      type: 'swap',
      fromChainId: 8453,
      toChainId: 8453,
      fromAmount: '0',
      toAmount: '0',
      toAmountMin: '0',
      provider: '',
      providerLogoURI: '',
      estimatedMs: 0,
      ...action,
      fromToken: { ...emptyToken, ...(action.fromToken as object | undefined) },
      toToken: { ...emptyToken, ...(action.toToken as object | undefined) },
    })),
  })
}
