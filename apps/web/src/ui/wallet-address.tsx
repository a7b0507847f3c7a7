import { Check, Copy } from 'lucide-react'
import { useEffect, useState } from 'react'
import { getAddress, isAddress } from 'viem'
import { maskMiddle } from '../lib/format'
import { Button } from './button'
import { classNames } from './class-names'
import { toast } from './use-toast'

/** The copy toast's 2000 ms (docs/product.md#constants). */
export const copyConfirmationMs = 2000

/** The EIP-55 checksummed form of an address; other strings come back unchanged. */
export function formatAddress(address: string): string {
  return isAddress(address, { strict: false }) ? getAddress(address) : address
}

/**
 * A wallet address in a monospace face with a copy button (docs/product.md#addresses-and-hashes): masked 6…4
 * by default, the full address on hover and in the clipboard (and, masked, as the copy button's
 * description for screen readers). A copy confirms in place (a check), to screen readers
 * (aria-live) and with the 'Address Copied' toast; a failing copy is silent.
 */
export function WalletAddress({
  address,
  isMasked = true,
  copyLabel = 'Copy address',
  copiedDescription = 'Your wallet address has been copied to your clipboard.',
  className,
}: {
  address: string
  isMasked?: boolean
  /** The copy button's accessible name, where a screen shows more than one address. */
  copyLabel?: string
  /** The copy toast's description, where the address is not the wallet's (EVM) address. */
  copiedDescription?: string
  className?: string
}) {
  const full = formatAddress(address)
  const [isCopied, setIsCopied] = useState(false)

  useEffect(() => {
    if (!isCopied) return
    const timeout = setTimeout(() => setIsCopied(false), copyConfirmationMs)
    return () => clearTimeout(timeout)
  }, [isCopied])

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(full)
    } catch {
      return
    }
    setIsCopied(true)
    toast({
      title: 'Address Copied',
      description: copiedDescription,
      duration: copyConfirmationMs,
    })
  }

  return (
    <div className={classNames('flex items-center gap-1', className)}>
      {isMasked ? (
        <span className="whitespace-nowrap font-mono text-sm" title={full}>
          {maskMiddle(full)}
        </span>
      ) : (
        // In full: one line where it fits, else two even halves rather than a ragged wrap.
        <span className="min-w-0 break-all font-mono text-[13px] leading-5">
          <span className="inline-block">{full.slice(0, Math.ceil(full.length / 2))}</span>
          <span className="inline-block">{full.slice(Math.ceil(full.length / 2))}</span>
        </span>
      )}
      <Button
        variant="ghost"
        size="icon"
        className="-my-2 text-muted hover:text-fg"
        aria-label={copyLabel}
        // Masked, the full address is the button's accessible description (read after its name).
        title={isMasked ? full : undefined}
        onClick={() => void copy()}
      >
        {isCopied ? <Check aria-hidden="true" className="text-success" /> : <Copy aria-hidden="true" />}
      </Button>
      <span aria-live="polite" className="sr-only">
        {isCopied ? 'Address copied' : ''}
      </span>
    </div>
  )
}
