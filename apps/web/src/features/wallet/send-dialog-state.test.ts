import type { SmartSendResult } from '@quicklinks/wallet/smart-accounts/smart-wallet-types'
import { describe, expect, it } from 'vitest'
import { createSendDialogState, reduceSendDialog, tokenKey } from './send-dialog-state'

const recipient = '0x000000000000000000000000000000000000dEaD'
const result: SmartSendResult = {
  userOpHash: `0x${'cd'.repeat(32)}`,
  transactionHash: `0x${'ab'.repeat(32)}`,
  success: true,
  actualGasCost: 1n,
  sponsored: true,
}

describe('reduceSendDialog', () => {
  it('keeps what was typed through a refused send, so Back finds the form as it was', () => {
    let state = createSendDialogState(tokenKey(8453, '0xABC'))
    expect(state.selectedKey).toBe('8453:0xabc')
    state = reduceSendDialog(state, { type: 'edit', field: 'amount', value: '1.5' })
    state = reduceSendDialog(state, { type: 'edit', field: 'recipient', value: recipient })
    state = reduceSendDialog(state, { type: 'progress', sponsored: true, step: 'sponsoring' })
    expect(state.phase).toEqual({ name: 'sending', sponsored: true, step: 'sponsoring' })
    state = reduceSendDialog(state, { type: 'refused', reason: 'POLICY_SPENT', message: 'Over the limit.' })
    expect(state.phase.name).toBe('refused')
    state = reduceSendDialog(state, { type: 'back' })
    expect(state).toMatchObject({ form: { amount: '1.5', recipient }, phase: { name: 'form' } })
  })

  it('shows problems of a left field only, and of every field after a submit', () => {
    let state = reduceSendDialog(createSendDialogState(''), { type: 'leave', field: 'amount' })
    expect(state.touched).toEqual({ amount: true })
    state = reduceSendDialog(state, { type: 'submit' })
    expect(state.touched).toEqual({ amount: true, recipient: true })
  })

  it('marks a sent transfer refreshing until the balances are read again, and ignores a late refresh elsewhere', () => {
    let state = reduceSendDialog(createSendDialogState(''), { type: 'sent', result, amount: 5n, recipient })
    expect(state.phase).toMatchObject({ name: 'sent', isRefreshing: true, amount: 5n })
    state = reduceSendDialog(state, { type: 'refreshed' })
    expect(state.phase).toMatchObject({ name: 'sent', isRefreshing: false })
    const failed = reduceSendDialog(createSendDialogState(''), { type: 'failed', message: 'Reverted.' })
    expect(reduceSendDialog(failed, { type: 'refreshed' })).toBe(failed)
  })
})
