import type { Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/**
 * A stopping server keeps accepting and reading until no connection has come for `quietMs` (at
 * most `acceptGraceMaxMs`) before it closes its listener: every connection already in the
 * kernel's queue or with a request in its buffer gets an answer (503 from Fastify while it
 * closes) instead of a reset. A busy event loop (an embedded database) accepts late, hence the wait.
 */
const quietMs = 300
const acceptGraceMaxMs = 3_000
const sweepMs = 50

/** Drains one listening HTTP server's connections on shutdown (see `trackConnections`). */
export type ConnectionDrain = {
  /**
   * Call before closing the app: answers in flight end their connection when sent; for a short
   * grace the listener stays open and nothing unread is reaped, so queued requests are answered
   * (503 while closing); then the listener closes and idle connections go as they become idle.
   */
  drain(): void
}

/**
 * Tracks a server's sockets (once per connection, nothing per request) so a graceful stop can
 * give every request a definite answer. Left to itself, `server.close()` resets the connections
 * still in the listen queue and every connection whose request is not parsed yet (both common
 * under load), and a keep-alive connection whose answer went out before the close stays open
 * until its keep-alive time-out.
 */
export function trackConnections(server: Server): ConnectionDrain {
  const sockets = new Set<Socket>()
  let connectionCount = 0
  server.on('connection', (socket: Socket) => {
    connectionCount += 1
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  return {
    drain: () => {
      for (const socket of sockets) {
        // Node keeps the answer in progress on its socket; not public, but stable since Node 0.x.
        const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
        if (response instanceof Object && !response.headersSent) response.shouldKeepAlive = false
      }
      const close = server.close.bind(server)
      const closeIdleConnections = server.closeIdleConnections.bind(server)
      let pendingClose: ((error?: Error) => void) | undefined
      let isGraceOver = false
      // Fastify calls close() when its own closing starts; the listener closes after the grace.
      server.close = (callback?: (error?: Error) => void) => {
        if (isGraceOver) close(callback)
        else pendingClose = callback ?? (() => {})
        return server
      }
      server.closeIdleConnections = () => {}
      const startedAt = Date.now()
      const endGrace = () => {
        isGraceOver = true
        server.close = close
        server.closeIdleConnections = closeIdleConnections
        if (pendingClose !== undefined) close(pendingClose)
        const sweep = setInterval(closeIdleConnections, sweepMs)
        sweep.unref()
        server.once('close', () => clearInterval(sweep))
      }
      // Quiet is counted in ticks, not read off the clock: between two ticks the loop polls and
      // accepts what waits in the queue, so a loop that was blocked (an embedded database) does
      // not mistake its own stall for quiet.
      let seenCount = connectionCount
      let quietTicks = 0
      const watch = setInterval(() => {
        quietTicks = connectionCount === seenCount ? quietTicks + 1 : 0
        seenCount = connectionCount
        const isQuiet = quietTicks * sweepMs >= quietMs
        if (!isQuiet && Date.now() - startedAt < acceptGraceMaxMs) return
        clearInterval(watch)
        endGrace()
      }, sweepMs)
      watch.unref()
    },
  }
}
