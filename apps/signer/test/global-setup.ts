// The server's global setup: one migrated PGlite snapshot per run, which every route test's app boots from.
export { default } from '@quicklinks/server/test/global-setup'
