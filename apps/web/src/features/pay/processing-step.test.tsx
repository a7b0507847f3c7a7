import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { buildTransactionRecordAnswer } from '../../../test/build-transaction-record-answer'
import { ProcessingStep } from './processing-step'
import { toTransactionRecord } from './transaction-record'

const hash = `0x${'ab'.repeat(32)}`

function renderWith(raw: Record<string, unknown> | undefined, nowMs = 10_000) {
  const record =
    raw === undefined
      ? undefined
      : toTransactionRecord(buildTransactionRecordAnswer({ id: 'r', intent_id: '0x1', ...raw }))
  return render(
    <ProcessingStep
      record={record}
      submittedAtMs={0}
      nowMs={nowMs}
      sourceTxHash={hash}
      getChainName={(chainId) => (chainId === 8453 ? 'Base' : 'Avalanche')}
    />,
  )
}

describe('ProcessingStep', () => {
  it('starts at 6% and waits for the route', () => {
    renderWith(undefined)
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('6')
    expect(screen.getByText('Confirming...')).toBeTruthy()
    expect(
      screen.getByText('Processing secure transaction. Do not close this window until confirmation.'),
    ).toBeTruthy()
    expect(screen.getByText('Waiting for route details…')).toBeTruthy()
    expect(screen.getByText('Verifying transaction...')).toBeTruthy()
    expect(screen.getByText('Waiting for confirmation')).toBeTruthy()
    // 90 s without steps, 10 s gone.
    expect(screen.getByText('01:20')).toBeTruthy()
    expect(screen.getByText('0xabab…ababab')).toBeTruthy()
  })

  it('shows a bridging payment with its timeline and explorer link', () => {
    renderWith({
      status_raw: 'ongoing',
      source_tx_hash: hash,
      from_chain_tx_url: `http://localhost/tx/${hash}`,
      route_path: [
        {
          type: 'bridge',
          fromChainId: 43114,
          toChainId: 8453,
          fromToken: { symbol: 'USDC' },
          toToken: { symbol: 'USDC' },
        },
        {
          type: 'transfer',
          fromChainId: 8453,
          toChainId: 8453,
          fromToken: { symbol: 'USDC' },
          toToken: { symbol: 'USDC' },
        },
      ],
      route_status: [
        { type: 'bridge', chainId: 43114, status: 'success' },
        { type: 'transfer', chainId: 8453, status: 'pending' },
      ],
    })
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('68')
    expect(screen.getByText('Transaction verified')).toBeTruthy()
    expect(screen.getByText('Waiting for confirmation')).toBeTruthy()
    const steps = within(screen.getByRole('region', { name: 'Route steps' })).getAllByRole('listitem')
    expect(steps.map((step) => step.textContent)).toEqual(['BridgeUSDC on Base', 'TransferUSDC on Base'])
    expect(screen.getByRole('link', { name: /0xabab…ababab/ }).getAttribute('href')).toBe(
      `http://localhost/tx/${hash}`,
    )
  })

  it('completes on success and says so on failure', () => {
    const { unmount } = renderWith({ status_raw: 'success' })
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100')
    expect(screen.getByText('Confirmed')).toBeTruthy()
    expect(screen.getByText('Confirmation complete')).toBeTruthy()
    unmount()
    renderWith({ status_raw: 'failed' })
    expect(screen.getByText('Failed')).toBeTruthy()
    expect(screen.getByText('Transaction failed')).toBeTruthy()
  })
})
