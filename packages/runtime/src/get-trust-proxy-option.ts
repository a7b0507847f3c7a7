import type { FastifyServerOptions } from 'fastify'
import type { HostConfig } from './env.ts'

/**
 * Fastify's `trustProxy` for TRUST_PROXY. A hop count becomes a function trusting that many
 * nearest hops (the socket's peer is hop 0), because Fastify itself refuses to trust on a bare
 * number; a hop count is only right when the server can be reached through its proxies alone.
 * Lists of addresses and CIDRs pass through to proxy-addr as they are.
 */
export function getTrustProxyOption(
  trustProxy: HostConfig['trustProxy'],
): FastifyServerOptions['trustProxy'] {
  if (typeof trustProxy !== 'number') return trustProxy
  const hops = trustProxy
  return (_address, hop) => hop < hops
}
