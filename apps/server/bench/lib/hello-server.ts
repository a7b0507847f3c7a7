// The bench's baseline: a bare Fastify answering GET / with {"hello":"world"}, nothing else.
// Run as its own process (`node --import tsx apps/server/bench/lib/hello-server.ts <port>`) so it
// gets a core of its own, like the app it is compared with; prints 'ready' once listening.
import Fastify from 'fastify'

const port = Number(process.argv[2] ?? 3400)
const app = Fastify({ logger: false })
app.get('/', async () => ({ hello: 'world' }))
await app.listen({ port, host: '127.0.0.1' })
console.log('ready')
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void app.close().finally(() => process.exit(0))
  })
}
