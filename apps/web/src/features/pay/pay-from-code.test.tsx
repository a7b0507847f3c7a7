import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { buildX402Snippet, buildX402Url, PayFromCode } from './pay-from-code'

const link = {
  alias_slug: 'coffee-fund',
  chain_id: 8453,
  token_address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
}

describe('Pay from code (x402)', () => {
  it("names the link's x402 URL: as is with an amount, with ?amount= without one", () => {
    expect(buildX402Url('https://pay.example', { ...link, amount: '5.00' })).toBe(
      'https://pay.example/x402/pay/coffee-fund',
    )
    expect(buildX402Url('https://pay.example', { ...link, amount: null })).toBe(
      'https://pay.example/x402/pay/coffee-fund?amount=5',
    )
  })

  it("the snippet uses the stock @x402/fetch client and allows the link's token on its chain", () => {
    const snippet = buildX402Snippet('https://pay.example/x402/pay/coffee-fund', link)
    expect(snippet).toContain("import { wrapFetchWithPayment } from '@x402/fetch'")
    expect(snippet).toContain("import { registerExactEvmScheme } from '@x402/evm/exact/client'")
    expect(snippet).toContain("network: 'eip155:8453', asset: '0x5FbDB2315678afecb367f032d93F642f64180aa3'")
    expect(snippet).toContain("('https://pay.example/x402/pay/coffee-fund')")
  })

  it('opens from a keyboard-reachable summary and copies the URL and the snippet', async () => {
    const user = userEvent.setup()
    render(<PayFromCode link={{ ...link, amount: '5' }} />)
    const summary = screen.getByText('Pay from code (x402)')
    await user.click(summary)
    const url = `${window.location.origin}/x402/pay/coffee-fund`
    expect(screen.getByText(url)).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Copy x402 URL' }))
    expect(await navigator.clipboard.readText()).toBe(url)
    expect(await screen.findByText('Copied')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Copy code snippet' }))
    expect(await navigator.clipboard.readText()).toBe(buildX402Snippet(url, link))
  })
})
