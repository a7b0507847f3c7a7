// @ts-check
// npm run serve: the production start. Runs the built app server alone (no devnet, no dev routes,
// no install, no build) against DATABASE_URL, REDIS_URL and RPC_URL_<chainId>; the server refuses
// to start, naming each missing setting, when one is absent (PRODUCTION=true; each section's
// checks: packages/runtime/src/env.ts, apps/signer/src/config, apps/server/src/config).
// SIGTERM drains in-flight requests and exits 0 (the README's "Running in production").
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot, runChild } from './lib.mjs'

const missing = /** @type {[path: string, message: string][]} */ ([
  ['node_modules/.bin/tsx', 'the npm dependencies are not installed: run `npm ci` first'],
  ['apps/web/dist/index.html', 'the web app is not built: run `npm run build` first'],
  ['apps/signer/dist/frames', 'the signer frames are not built: run `npm run build` first'],
]).filter(([path]) => !existsSync(join(repoRoot, path)))
if (missing.length > 0) {
  for (const [, message] of missing) console.error(`✖ ${message}`)
  process.exit(1)
}

const { child, exited } = runChild(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  env: { ...process.env, PRODUCTION: 'true', NODE_ENV: 'production' },
})
// The server handles the signals itself (drain, close, exit); this process only passes them on.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => child.kill(signal))
}
process.exit(await exited)
