import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { DatabaseClient } from '../db/create-database-client.ts'
import { subscribeToLinkChanges } from '../services/links/link-change-feed.ts'
import {
  createPublicLinkCache,
  type PublicLinkCache,
  type PublicLinkCacheOptions,
} from '../services/links/public-link-cache.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The public link reads' cache; link writes invalidate it (here and, through NOTIFY, elsewhere). */
    publicLinks: PublicLinkCache
  }
}

export type PublicLinkCachePluginOptions = {
  /** The app's database: its NOTIFY feed carries other instances' link writes. */
  client: DatabaseClient
  cache?: PublicLinkCacheOptions
}

const plugin: FastifyPluginAsync<PublicLinkCachePluginOptions> = async (app, options) => {
  const cache = createPublicLinkCache(options.cache)
  // Off until the change feed listens: before that, another instance's write would go unseen.
  cache.setEnabled(false)
  app.decorate('publicLinks', cache)
  const unsubscribe = await subscribeToLinkChanges(
    options.client,
    {
      onChange: (slugs) => (slugs === undefined ? cache.clear() : cache.invalidate(slugs)),
      onStatus: (isListening) => cache.setEnabled(isListening),
    },
    app.log,
  )
  // Before the database closes (the database plugin's onClose hook runs after this one's preClose).
  app.addHook('preClose', async () => {
    cache.setEnabled(false)
    await unsubscribe()
  })
}

/**
 * Decorates `app.publicLinks`: an in-memory cache of public link reads, kept honest across
 * instances by the database's NOTIFY feed of link writes (docs/decisions/0013).
 */
export const publicLinkCachePlugin = fp(plugin, {
  name: 'public-link-cache',
  fastify: '5.x',
  dependencies: ['database'],
})
