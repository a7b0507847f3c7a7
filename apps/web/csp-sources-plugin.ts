import type { Plugin } from 'vite'

/**
 * The origins WalletConnect's connector and QR modal (Reown AppKit) reach from the page, per CSP
 * directive (Reown's published CSP guidance).
 */
export const walletConnectCspSources: Record<string, string[]> = {
  'connect-src': [
    'https://rpc.walletconnect.com',
    'https://rpc.walletconnect.org',
    'https://relay.walletconnect.com',
    'https://relay.walletconnect.org',
    'wss://relay.walletconnect.com',
    'wss://relay.walletconnect.org',
    'https://pulse.walletconnect.org',
    'https://api.web3modal.com',
    'https://api.web3modal.org',
    'https://keys.walletconnect.com',
    'https://keys.walletconnect.org',
    'https://notify.walletconnect.com',
    'https://notify.walletconnect.org',
    'https://echo.walletconnect.com',
    'https://echo.walletconnect.org',
    'https://push.walletconnect.com',
    'https://push.walletconnect.org',
    'wss://www.walletlink.org',
  ],
  'frame-src': [
    'https://verify.walletconnect.com',
    'https://verify.walletconnect.org',
    'https://secure.walletconnect.com',
    'https://secure.walletconnect.org',
  ],
  'img-src': [
    'https://walletconnect.org',
    'https://walletconnect.com',
    'https://secure.walletconnect.com',
    'https://secure.walletconnect.org',
    'https://tokens-data.1inch.io',
    'https://tokens.1inch.io',
    'https://ipfs.io',
    'https://cdn.zerion.io',
    'https://api.web3modal.com',
    'https://api.web3modal.org',
  ],
  'font-src': ['https://fonts.reown.com'],
}

/**
 * Emits `csp-sources.json` beside index.html: what the page reaches beyond its own origin, which
 * the app server adds to its Content-Security-Policy. WalletConnect's origins are listed only when
 * a project id is built in (the connector is offered only then); otherwise nothing is emitted.
 */
export function cspSourcesPlugin(options: { walletConnectProjectId: string }): Plugin {
  return {
    name: 'quicklinks:csp-sources',
    apply: 'build',
    generateBundle() {
      if (options.walletConnectProjectId === '') return
      this.emitFile({
        type: 'asset',
        fileName: 'csp-sources.json',
        source: `${JSON.stringify(walletConnectCspSources, null, 2)}\n`,
      })
    },
  }
}
