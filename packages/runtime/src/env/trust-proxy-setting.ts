import { isIP } from 'node:net'
import { z } from 'zod'

/** Ranges proxy-addr (Fastify's trustProxy) knows by name. */
const namedProxyRanges = ['loopback', 'linklocal', 'uniquelocal']

/**
 * TRUST_PROXY: how far X-Forwarded-For is believed. Unset or `false`: not at all (the socket's
 * address is the client). A hop count: that many proxies in front. Else a comma list of the
 * proxies' addresses or CIDRs. `true` (believe any header) is refused: any client could then
 * choose the address its rate limits count.
 */
export const trustProxySchema = z
  .string()
  .optional()
  .transform((value, context): false | number | string[] => {
    if (value === undefined || value === 'false' || value === '0') return false
    if (value === 'true') {
      context.addIssue({
        code: 'custom',
        message:
          "true would trust any client's X-Forwarded-For, so anyone could pick the address rate limits count; give the number of proxies in front of the server (e.g. 1) or their addresses or CIDRs (e.g. 10.0.0.0/8,192.168.0.5)",
      })
      return z.NEVER
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value)
      if (hops <= 32) return hops
      context.addIssue({ code: 'custom', message: 'a hop count is at most 32' })
      return z.NEVER
    }
    const entries = value.split(',').map((entry) => entry.trim())
    const bad = entries.filter((entry) => !isProxyAddress(entry))
    if (bad.length === 0) return entries
    context.addIssue({
      code: 'custom',
      message: `${bad.map((entry) => JSON.stringify(entry)).join(', ')} is not a hop count, an IP address or a CIDR such as 10.0.0.0/8 (or loopback, linklocal, uniquelocal)`,
    })
    return z.NEVER
  })

function isProxyAddress(entry: string): boolean {
  if (namedProxyRanges.includes(entry)) return true
  const [address = '', prefix, ...rest] = entry.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)
}
