import { createServer } from 'node:net'

/**
 * A loopback port that was free a moment ago (bound to port 0, then closed): for a test server
 * to listen on, or, left unused, a port where connections are refused.
 */
export async function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}
