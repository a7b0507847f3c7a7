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
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
})
