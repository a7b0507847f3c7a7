import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { getRelayerAccount } from '../services/payments/providers/local/relayer/get-relayer-account.ts'
import {
  createRelayerHub,
  type RelayerHub,
} from '../services/payments/providers/local/relayer/relayer-hub.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The relayer key's hub in this process (its chains with their one nonce manager, and its
     * writer lock), or null without a relayer key: the relayer worker and the x402 facilitator share
     * it, so their transactions never share a nonce (docs/decisions/0031).
     */
    relayerHub: RelayerHub | null
  }
}

const plugin: FastifyPluginAsync = async (app) => {
  const account = getRelayerAccount(app.config)
  app.decorate('relayerHub', account ? createRelayerHub({ db: app.db, config: app.config, account }) : null)
  // The relayer worker gives the lock up when it stops; this covers an app whose workers never ran.
  app.addHook('onClose', async () => {
    await app.relayerHub?.releaseWriter()
  })
}

/** Decorates `app.relayerHub` (RELAYER_PRIVATE_KEY, or the devnet's relayer in dev mode); needs the config and database plugins. */
export const relayerPlugin = fp(plugin, {
  name: 'relayer',
  fastify: '5.x',
  dependencies: ['config', 'database'],
})
