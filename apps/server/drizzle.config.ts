import { defineConfig } from 'drizzle-kit'

// `npm run db:generate -w apps/server` writes a new SQL migration after a schema change; no
// database is needed. Migrations run at server start (src/main.ts) or with `npm run db:migrate`.
// The signer's tables are the signer's, with their own migrations (apps/signer/drizzle.config.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './src/db/migrations',
})
