import { appVersion, productName } from '../lib/env'

/** docs/product.md#footer: 'Secured by' the product name plus the version number. */
export function Footer() {
  return (
    <footer className="border-border border-t">
      <p className="mx-auto max-w-5xl px-4 py-6 text-center text-muted text-xs">
        {`Secured by ${productName} · v${appVersion}`}
      </p>
    </footer>
  )
}
