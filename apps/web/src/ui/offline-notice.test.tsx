import { act, render, screen } from '@testing-library/react'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PayDialogShell } from '../features/pay/pay-dialog-shell'
import { OfflineNotice, offlinePaymentMessage } from './offline-notice'

let online = true

function goOffline(value: boolean) {
  online = !value
  act(() => {
    window.dispatchEvent(new Event(value ? 'offline' : 'online'))
  })
}

beforeAll(() => {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
})
afterAll(() => {
  online = true
})
beforeEach(() => {
  online = true
})

describe('OfflineNotice', () => {
  it('says nothing online, and shows its text as an alert while the browser is offline', () => {
    render(<OfflineNotice>Signing in needs a connection.</OfflineNotice>)
    expect(screen.queryByRole('alert')).toBeNull()

    goOffline(true)
    expect(screen.getByRole('alert').textContent).toBe('Signing in needs a connection.')

    goOffline(false)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('tells a payer in the pay modal that payments need a connection', () => {
    online = false
    render(
      <PayDialogShell title="Choose a wallet" onDismiss={() => {}}>
        <p>step</p>
      </PayDialogShell>,
    )
    expect(screen.getByRole('alert').textContent).toBe(offlinePaymentMessage)
  })
})
