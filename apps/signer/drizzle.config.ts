import { defineConfig } from 'drizzle-kit'

// `npm run db:generate -w apps/signer` writes a new SQL migration after a change to the signer's
// tables (src/db/signer-schema.ts); no database is needed. The signer's migrations are its own
// (recorded in drizzle.__signer_migrations) and run wherever the signer runs: the app server runs
// them beside its own at start (docs/decisions/0016). Make each statement idempotent (IF NOT
// EXISTS): databases from before the split already hold the signer's tables.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/signer-schema.ts',
  out: './src/db/migrations',
  migrations: { table: '__signer_migrations', schema: 'drizzle' },
})
