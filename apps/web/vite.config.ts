import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type ProxyOptions } from 'vite'
import rootPackage from '../../package.json' with { type: 'json' }

// The app server owns these paths; the SPA never routes them. A RegExp key so that a slug such as
// `/signerly` is not proxied by prefix.
const apiOrigin = 'http://localhost:3000'
const proxy: Record<string, ProxyOptions> = {
  '^/(api|health|signer)(/|\\?|$)': { target: apiOrigin, changeOrigin: false },
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss()],
  // The footer shows the product version, which is the root package's.
  define: { __APP_VERSION__: JSON.stringify(rootPackage.version) },
  server: { proxy },
  preview: { proxy },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
})
