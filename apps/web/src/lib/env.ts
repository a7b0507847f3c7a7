/**
 * Build-time settings of the web app. Vite replaces `__APP_VERSION__` (the root package's version);
 * nothing else in the app reads build or environment values: what a server is configured with
 * (routing provider, WalletConnect) comes from GET /api/config at run time (lib/public-config.ts).
 */
declare const __APP_VERSION__: string

export const productName = 'Quick Links'

/** Shown in the footer: 'Secured by Quick Links · v0.1.0'. */
export const appVersion: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0'

/** API requests go to the page's own origin: the app server serves the SPA, /api, /health and /signer. */
export const apiBaseUrl = ''
