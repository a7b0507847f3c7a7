import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Toaster } from '../../app/toaster'
import { dismissToast } from '../../ui/use-toast'
import {
  buildQrCodeSvg,
  buildSocialShareUrl,
  type ShareableLink,
  ShareLinkDialog,
  shareCopyToastMs,
} from './share-link-dialog'

const link: ShareableLink = {
  alias: 'Coffee Fund',
  alias_slug: 'coffee-fund',
  token_name: 'USDC',
  chain: 'base',
}
const url = `${window.location.origin}/pay/coffee-fund`

function Harness() {
  const [open, setOpen] = useState(true)
  return (
    <>
      <ShareLinkDialog link={link} open={open} onOpenChange={setOpen} />
      <Toaster />
    </>
  )
}

afterEach(() => {
  act(() => dismissToast())
  vi.useRealTimers()
})

describe('share dialog', () => {
  it('is named Share with Friends and shows the link read-only with what the payee receives', async () => {
    render(<Harness />)
    const dialog = await screen.findByRole('dialog', { name: 'Share with Friends' })
    const field = screen.getByRole('textbox', { name: 'Payment link' }) as HTMLInputElement
    expect(field.value).toBe(url)
    expect(field.readOnly).toBe(true)
    expect(dialog.textContent).toContain("You'll be receiving USDC on Base.")
  })

  it('shows a QR code image named after the link', async () => {
    render(<Harness />)
    const image = (await screen.findByRole('img', { name: `QR code for ${url}` })) as HTMLImageElement
    expect(image.src.startsWith('data:image/svg+xml')).toBe(true)
    expect(decodeURIComponent(image.src)).toContain('<svg')
  })

  it('copies the link and says so with the Link Copied toast for 2 s', async () => {
    render(<Harness />)
    fireEvent.click(await screen.findByRole('button', { name: 'Copy link' }))
    expect(await screen.findByText('Link Copied')).toBeTruthy()
    expect(screen.getByText('The payable link has been copied to your clipboard.')).toBeTruthy()
    expect(await navigator.clipboard.readText()).toBe(url)
    expect(screen.getByText('Link copied').getAttribute('aria-live')).toBe('polite')
    await waitFor(() => expect(screen.queryByText('Link Copied')).toBeNull(), {
      timeout: shareCopyToastMs + 1500,
    })
  })

  it('stays silent when the clipboard refuses', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'))
    render(<Harness />)
    fireEvent.click(await screen.findByRole('button', { name: 'Copy link' }))
    await waitFor(() => expect(writeText).toHaveBeenCalled())
    expect(screen.queryByText('Link Copied')).toBeNull()
    writeText.mockRestore()
  })

  it('offers Facebook, X, Whatsapp, Telegram and Linkedin, each opening its share page in a new tab', async () => {
    render(<Harness />)
    await screen.findByRole('dialog')
    const expected: Record<string, string> = {
      Facebook: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`,
      X: 'https://x.com/intent/tweet?',
      Whatsapp: 'https://wa.me/?text=',
      Telegram: `https://t.me/share/url?url=${encodeURIComponent(url)}`,
      Linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}`,
    }
    const names = screen.getAllByRole('link').map((anchor) => anchor.getAttribute('aria-label'))
    expect(names).toEqual([
      'Share on Facebook',
      'Share on X',
      'Share on Whatsapp',
      'Share on Telegram',
      'Share on Linkedin',
    ])
    for (const [platform, start] of Object.entries(expected)) {
      const anchor = screen.getByRole('link', { name: `Share on ${platform}` })
      const href = anchor.getAttribute('href') ?? ''
      expect(href.startsWith(start)).toBe(true)
      // Every platform's share address carries the link itself.
      expect(decodeURIComponent(href)).toContain(url)
      expect(anchor.getAttribute('target')).toBe('_blank')
      expect(anchor.getAttribute('rel')).toBe('noopener noreferrer')
    }
  })

  it('closes on Escape', async () => {
    render(<Harness />)
    fireEvent.keyDown(await screen.findByRole('dialog'), { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})

describe('social share addresses', () => {
  it('encode the link and the text so neither can break out of its parameter', () => {
    const tricky = 'https://app.test/pay/a?b=1&c=2'
    const href = buildSocialShareUrl('X', tricky, 'Pay & go')
    const params = new URL(href).searchParams
    expect(params.get('url')).toBe(tricky)
    expect(params.get('text')).toBe('Pay & go')
    expect(new URL(buildSocialShareUrl('Whatsapp', tricky, 'Pay me')).searchParams.get('text')).toBe(
      `Pay me ${tricky}`,
    )
  })
})

describe('QR code', () => {
  it('differs for different links and is a standalone SVG', () => {
    const first = buildQrCodeSvg('https://app.test/pay/one')
    const second = buildQrCodeSvg('https://app.test/pay/two')
    expect(first.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(first).not.toBe(second)
  })
})
