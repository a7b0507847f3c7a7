import QRCode from 'qrcode'
import { useMemo } from 'react'

/**
 * The QR code of a payment request as an image named 'QR code for {uri}', dark on a white tile in
 * both themes with a quiet zone, so a phone scans it in dark mode too (error correction M, as the
 * share dialog's). Its own copy rather than the links feature's: that folder depends on invoices,
 * which shows this view.
 */
export function DepositQrCode({ uri }: { uri: string }) {
  const source = useMemo(() => {
    let svg = ''
    // With a callback the SVG renderer runs synchronously.
    QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }, (error, output) => {
      if (error !== null && error !== undefined) throw error
      svg = output
    })
    return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`
  }, [uri])
  return (
    <div className="mx-auto rounded-card border border-border bg-white p-2">
      <img src={source} alt={`QR code for ${uri}`} width={208} height={208} className="block size-52" />
    </div>
  )
}
