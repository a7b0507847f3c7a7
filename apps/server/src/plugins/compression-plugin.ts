import { constants } from 'node:zlib'
import fastifyCompress from '@fastify/compress'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { compressionThresholdBytes } from '../services/http/encode-once.ts'

const bodilessMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

const plugin: FastifyPluginAsync = async (app) => {
  // Before @fastify/compress's own onRoute hook: a route that takes no body (GET, HEAD) needs no
  // request decompression, so it does not carry that preParsing hook on every request.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (route.decompress === undefined && methods.every((method) => bodilessMethods.has(method))) {
      route.decompress = false
    }
  })
  await app.register(fastifyCompress, {
    global: true,
    threshold: compressionThresholdBytes,
    encodings: ['br', 'gzip'],
    // Brotli's quality 4 (@fastify/compress's default, said here so it stays): close to gzip's
    // speed with smaller output; quality 11 is for the build's precompressed files only.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  })
}

/**
 * Compresses dynamic answers of 1 KB or more (JSON, the pay page's HTML) with brotli or gzip by
 * Accept-Encoding, setting Vary. Files the build precompressed (.br, .gz beside each asset) are
 * sent by @fastify/static with their Content-Encoding already set, which this leaves alone.
 * Register it before the routes it serves (the API scopes): it hooks each route as it is added.
 */
export const compressionPlugin = fp(plugin, { name: 'compression', fastify: '5.x' })
