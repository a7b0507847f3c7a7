/**
 * The origins WalletConnect's connector and its QR modal (Reown AppKit) reach from the pay page, per
 * CSP directive (Reown's published CSP guidance): the relay (wss and https), its RPC, the verify and
 * secure frames, the wallet list API, images and fonts. The app origin's CSP carries them only when
 * the server has a WALLETCONNECT_PROJECT_ID, the only case in which the page offers WalletConnect.
 */
export const walletConnectCspSources: Readonly<Record<string, readonly string[]>> = {
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
