import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { getRoutingProvider } from '../services/payments/providers/get-routing-provider.ts'
import type { RoutingProvider } from '../services/payments/route/routing-provider.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The routing provider ROUTING_PROVIDER selects, built once per app: every route, the payment
     * tracker and the workers share it, so they share its catalogue cache and in-flight requests.
     */
    routingProvider: RoutingProvider
  }
}

const plugin: FastifyPluginAsync = async (app) => {
  // With the database: the local provider's status reads the relayer's recorded fills first; its
  // relayer worker signs through the app's relayer hub, as the x402 facilitator does.
  app.decorate(
    'routingProvider',
    getRoutingProvider(app.config, { db: app.db, ...(app.relayerHub ? { relayerHub: app.relayerHub } : {}) }),
  )
}

/** Decorates `app.routingProvider`, built once from the config; needs the config, database and relayer plugins. */
export const routingProviderPlugin = fp(plugin, {
  name: 'routing-provider',
  fastify: '5.x',
  dependencies: ['config', 'database', 'relayer'],
})
