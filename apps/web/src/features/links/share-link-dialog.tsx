import { Check, Copy } from 'lucide-react'
import QRCode from 'qrcode'
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react'
import { siFacebook, siTelegram, siWhatsapp, siX } from 'simple-icons'
import { formatChainName } from '../../lib/format'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { toast } from '../../ui/use-toast'

/** The copy toast shows for 2000 ms (docs/product.md#share-dialog). */
export const shareCopyToastMs = 2000

/** The fields of a link the dialog reads; the owner's `Link` satisfies it. */
export type ShareableLink = {
  alias: string
  alias_slug: string
  token_name: string
  chain: string
}

/**
 * The public address of a link: the site origin plus /pay/{alias_slug} (docs/product.md#public-address).
 * `origin` defaults to the page's own.
 */
export function buildPayLinkUrl(aliasSlug: string, origin: string = window.location.origin): string {
  return `${origin}/pay/${encodeURIComponent(aliasSlug)}`
}

export type SocialPlatform = 'Facebook' | 'X' | 'Whatsapp' | 'Telegram' | 'Linkedin'

/** The social buttons, in the order docs/product.md#share-dialog lists them. */
export const socialPlatforms: readonly SocialPlatform[] = [
  'Facebook',
  'X',
  'Whatsapp',
  'Telegram',
  'Linkedin',
]

/**
 * Each platform's public share address for `url`, with `text` where the platform takes one
 * (issue 4: the buttons share, as users expect, rather than being display only).
 */
export function buildSocialShareUrl(platform: SocialPlatform, url: string, text: string): string {
  const encodedUrl = encodeURIComponent(url)
  const encodedText = encodeURIComponent(text)
  switch (platform) {
    case 'Facebook':
      return `https://www.facebook.com/sharer/sharer.php?u=${encodedUrl}`
    case 'X':
      return `https://x.com/intent/tweet?text=${encodedText}&url=${encodedUrl}`
    case 'Whatsapp':
      return `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`
    case 'Telegram':
      return `https://t.me/share/url?url=${encodedUrl}&text=${encodedText}`
    case 'Linkedin':
      return `https://www.linkedin.com/sharing/share-offsite/?url=${encodedUrl}`
    default: {
      const unknownPlatform: never = platform
      return unknownPlatform
    }
  }
}

/**
 * The QR code of `text` as an SVG document (error correction M, docs/product.md#share-dialog), dark modules
 * on white with a quiet zone, so it scans in both themes. Throws only for text too long for a QR
 * code (over ~2 KB), which a link address never is.
 */
export function buildQrCodeSvg(text: string): string {
  let svg = ''
  // With a callback the SVG renderer runs synchronously, in the browser and in Node alike.
  QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }, (error, output) => {
    if (error !== null && error !== undefined) throw error
    svg = output
  })
  return svg
}

export type ShareLinkDialogProps = {
  link: ShareableLink
  open: boolean
  onOpenChange: (open: boolean) => void
}

/**
 * 'Share with Friends' (docs/product.md#share-dialog): the link read-only with a copy button (toast
 * 'Link Copied', 2 s; a failing copy is silent), its QR code, what the payee receives,
 * and buttons that open each platform's share page in a new tab.
 */
export function ShareLinkDialog({ link, open, onOpenChange }: ShareLinkDialogProps) {
  const url = buildPayLinkUrl(link.alias_slug)
  const chainName = formatChainName(link.chain)
  const shareText = `Pay ${link.alias} in ${link.token_name} on ${chainName}`
  const fieldId = useId()
  const [isCopied, setIsCopied] = useState(false)

  useEffect(() => {
    if (!isCopied) return
    const timeout = setTimeout(() => setIsCopied(false), shareCopyToastMs)
    return () => clearTimeout(timeout)
  }, [isCopied])

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url)
    } catch {
      return
    }
    setIsCopied(true)
    toast({
      title: 'Link Copied',
      description: 'The payable link has been copied to your clipboard.',
      duration: shareCopyToastMs,
    })
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Share with Friends" isDescribed={false}>
      <div className="mt-5 grid gap-5">
        <div>
          <label htmlFor={fieldId} className="font-medium text-sm">
            Payment link
          </label>
          <div className="mt-1.5 flex items-center gap-2">
            <input
              id={fieldId}
              readOnly
              value={url}
              onFocus={(event) => event.currentTarget.select()}
              className="min-h-11 min-w-0 flex-1 rounded-control border border-border bg-subtle px-3 font-mono text-[13px]"
            />
            <Button variant="secondary" size="icon" aria-label="Copy link" onClick={() => void copy()}>
              {isCopied ? <Check aria-hidden="true" className="text-success" /> : <Copy aria-hidden="true" />}
            </Button>
          </div>
          <span aria-live="polite" className="sr-only">
            {isCopied ? 'Link copied' : ''}
          </span>
        </div>

        <QrCodeImage text={url} />

        <p className="text-center text-muted text-sm">
          You'll be receiving <span className="font-medium text-fg">{link.token_name}</span> on{' '}
          <span className="font-medium text-fg">{chainName}</span>.
        </p>

        <ul aria-label="Share on" className="flex flex-wrap justify-center gap-3">
          {socialPlatforms.map((platform) => (
            <li key={platform}>
              <a
                href={buildSocialShareUrl(platform, url, shareText)}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`Share on ${platform}`}
                title={platform}
                className="flex size-11 items-center justify-center rounded-full text-white shadow-sm transition-opacity hover:opacity-85"
                style={{ backgroundColor: socialColors[platform] }}
              >
                {socialGlyphs[platform]}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </Dialog>
  )
}

/** The link's QR code as an image named 'QR code for {text}', on a white tile in both themes. */
export function QrCodeImage({ text }: { text: string }) {
  const source = useMemo(() => `data:image/svg+xml;utf8,${encodeURIComponent(buildQrCodeSvg(text))}`, [text])
  return (
    <div className="mx-auto rounded-card border border-border bg-white p-2">
      <img src={source} alt={`QR code for ${text}`} width={176} height={176} className="block size-44" />
    </div>
  )
}

// Brand colours, dark enough behind white glyphs (WhatsApp's and Telegram's own greens and blues
// are too light for white at 4.5:1, so their darker brand shades are used).
const socialColors: Record<SocialPlatform, string> = {
  Facebook: `#${siFacebook.hex}`,
  X: '#000000',
  Whatsapp: '#128c48',
  Telegram: '#1b72a8',
  Linkedin: '#0a66c2',
}

function BrandGlyph({ path }: { path: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 fill-current">
      <path d={path} />
    </svg>
  )
}

const socialGlyphs: Record<SocialPlatform, ReactNode> = {
  Facebook: <BrandGlyph path={siFacebook.path} />,
  X: <BrandGlyph path={siX.path} />,
  Whatsapp: <BrandGlyph path={siWhatsapp.path} />,
  Telegram: <BrandGlyph path={siTelegram.path} />,
  // simple-icons no longer ships LinkedIn's mark: the "in" drawn from plain shapes.
  Linkedin: (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 fill-current">
      <circle cx="5" cy="4.8" r="2.3" />
      <rect x="3" y="8.5" width="4" height="12.5" rx="0.5" />
      <path d="M9.5 8.5h3.8v1.8c.6-1.1 2-2.1 4.1-2.1 3.4 0 4.1 2.2 4.1 5.2V21h-4v-6.6c0-1.6-.3-2.8-1.9-2.8-1.7 0-2.1 1.2-2.1 2.8V21h-4z" />
    </svg>
  ),
}
