import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/**
 * Where a webhook may never be sent (docs/api.md#webhook-safety): loopback, private, shared
 * (CGNAT), link-local (the cloud metadata service at 169.254.169.254 among them), unspecified,
 * multicast and reserved ranges, in IPv4 and IPv6 (IPv4-mapped IPv6 addresses are checked as the
 * IPv4 address they carry).
 */
const blocked = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6')
}

const mappedIpv4Pattern = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i

/** Whether `address` (an IP literal) is one a webhook must never reach. */
export function isForbiddenAddress(address: string): boolean {
  const mapped = mappedIpv4Pattern.exec(address)?.[1]
  if (mapped !== undefined) return isForbiddenAddress(mapped)
  const family = isIP(address)
  if (family === 4) return blocked.check(address, 'ipv4')
  if (family === 6) return blocked.check(address, 'ipv6')
  return true
}

/** The error a refused address gives (its message is shown in the delivery log). */
export class ForbiddenWebhookAddressError extends Error implements NodeJS.ErrnoException {
  override readonly name = 'ForbiddenWebhookAddressError'
  readonly code = 'WEBHOOK_ADDRESS_FORBIDDEN'
}

/**
 * A `lookup` for http.request: resolves the host, refuses it when any of its addresses is
 * forbidden, and connects to the address it checked. The check runs at connect time, on every
 * delivery, after DNS: a name that resolved to a public address when the endpoint was saved and
 * to 127.0.0.1 now (DNS rebinding) is refused now. With `isAllowingPrivate` (dev mode, where the
 * receiver runs on this machine) every address passes.
 */
export function createGuardedLookup(isAllowingPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) return callback(error, '', 0)
      const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address))
      if (!isAllowingPrivate && (forbidden !== undefined || addresses.length === 0)) {
        return callback(
          new ForbiddenWebhookAddressError(
            `${hostname} resolves to ${forbidden?.address ?? 'nothing'}, which webhooks may not reach`,
          ),
          '',
          0,
        )
      }
      const chosen = addresses[0] as LookupAddress
      // Node's connect asks for every address (autoSelectFamily): it gets only the checked one.
      if (options.all === true) callback(null, [chosen])
      else callback(null, chosen.address, chosen.family)
    })
  }
}
