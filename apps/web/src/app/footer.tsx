import { appVersion, productName } from '../lib/env'

/** SPEC: 'Secured by' the provider plus a version number. */
export function Footer() {
  return (
    <footer className="border-border border-t">
      <p className="mx-auto max-w-5xl px-4 py-6 text-center text-muted text-xs">
        {`Secured by ${productName} · v${appVersion}`}
      </p>
    </footer>
  )
}
