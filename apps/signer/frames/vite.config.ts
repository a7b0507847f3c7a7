import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

// The signer frames (auth and export), served by the app server's frames listener from
// apps/signer/dist/frames. Two HTML entries; the server injects each page's configuration into
// its <meta name="quicklinks-frame-config"> tag and serves it with a strict CSP (script-src 'self'),
// so nothing here may be inlined.
export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../dist/frames', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: {
        'auth-frame': fileURLToPath(new URL('auth-frame.html', import.meta.url)),
        'export-frame': fileURLToPath(new URL('export-frame.html', import.meta.url)),
      },
    },
  },
})
