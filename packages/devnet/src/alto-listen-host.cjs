// Preloaded into Alto (`node --require`): Alto's RPC server listens on 0.0.0.0 and has no flag to
// change that, which would put the devnet's bundler on every network the machine is on. This
// rewrites a wildcard (or missing) listen host to QUICKLINKS_ALTO_LISTEN_HOST before Node binds.
const net = require('node:net')

const listenHost = process.env.QUICKLINKS_ALTO_LISTEN_HOST
const wildcardHosts = new Set([undefined, '', '0.0.0.0', '::'])
const listen = net.Server.prototype.listen

if (listenHost) {
  net.Server.prototype.listen = function listenOnDevnetHost(...args) {
    const [first] = args
    if (typeof first === 'object' && first !== null && 'port' in first && wildcardHosts.has(first.host)) {
      args[0] = { ...first, host: listenHost }
    } else if (typeof first === 'number' && (typeof args[1] !== 'string' || wildcardHosts.has(args[1]))) {
      args.splice(1, typeof args[1] === 'string' ? 1 : 0, listenHost)
    }
    return listen.apply(this, args)
  }
}
