import { fileURLToPath } from 'node:url'

/**
 * The signer's own migration set (docs/decisions/0016): its checked-in SQL (`npm run db:generate -w
 * apps/signer`) and the table that records which ran, apart from the host's, so either set can
 * change without the other. Whoever opens the signer's database runs it with Drizzle's migrator
 * (the app server does, beside its own, in its `migrate`). Every statement is idempotent, so a
 * database whose signer tables the app server's migrations made before the move migrates cleanly.
 */
export const signerMigrations = {
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  migrationsTable: '__signer_migrations',
  migrationsSchema: 'drizzle',
} as const
