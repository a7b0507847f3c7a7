import { defineConfig } from 'drizzle-kit'

// `npm run db:generate -w apps/server` writes a new SQL migration after a schema change; no
// database is needed. Migrations run at server start (src/main.ts) or with `npm run db:migrate`.
// The signer's tables live beside its code; one migration set covers the whole database.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/schema.ts', '../signer/src/db/signer-schema.ts'],
  out: './src/db/migrations',
})
