import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type ProxyOptions } from 'vite'
import rootPackage from '../../package.json' with { type: 'json' }
import { precompressPlugin } from './precompress-plugin'

// The app server owns these paths; the SPA never routes them. A RegExp key so that a slug such as
// `/signerly` is not proxied by prefix.
const apiOrigin = 'http://localhost:3000'
const proxy: Record<string, ProxyOptions> = {
  '^/(api|health|signer)(/|\\?|$)': { target: apiOrigin, changeOrigin: false },
}
const walletLibraryPattern = /[\\/]node_modules[\\/](?:viem|ox|abitype|@noble|@scure|@adraffy)[\\/]/
const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root,
  plugins: [
    react(),
    tailwindcss(),
    // .br and .gz beside every asset: the server sends them by Accept-Encoding.
    precompressPlugin(),
  ],
  // The footer shows the product version, which is the root package's.
  define: { __APP_VERSION__: JSON.stringify(rootPackage.version) },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically (React, the router, the query cache, the pay
        // page's shell) in one chunk: left to itself the bundler cuts it into some 25 shared
        // chunks, each its own request and its own 1.4 KB of response headers, which on a phone's
        // Slow 4G is seconds of round trips (docs/decisions/0028-the-pay-page-loads-the-wallet-on-intent.md).
        // The lazy screens and the wallet stack stay split and import from it.
        // viem's family stays out of the group: its barrel makes all of viem "initial", and the
        // group would pull the wallet stack's viem into the shell.
        codeSplitting: {
          groups: [
            {
              name: 'shell',
              tags: ['$initial'],
              test: (id) => !walletLibraryPattern.test(id),
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
})
