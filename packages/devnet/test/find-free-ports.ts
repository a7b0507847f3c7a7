import { createServer, type Server } from 'node:net'

/**
 * Asks the kernel for `count` distinct free loopback ports (by binding port 0), so tests never
 * touch the ports a developer's stack uses. Throws when a port cannot be bound.
 */
export async function findFreePorts(count: number): Promise<number[]> {
  const servers: Server[] = []
  try {
    const ports: number[] = []
    for (let index = 0; index < count; index++) {
      const server = createServer()
      servers.push(server)
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(0, '127.0.0.1', () => resolve())
      })
      const address = server.address()
      if (address === null || typeof address === 'string') throw new Error('no port assigned')
      ports.push(address.port)
    }
    return ports
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  }
}
