import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'

/**
 * The Drizzle handle the signer works with: any Postgres driver (PGlite or `pg`) and any schema,
 * since it only uses the query builder over its own tables. The app server passes its `app.db`.
 */
// biome-ignore lint/suspicious/noExplicitAny: the host's schema is unknown here and never read.
export type SignerDatabase = PgDatabase<PgQueryResultHKT, any>
