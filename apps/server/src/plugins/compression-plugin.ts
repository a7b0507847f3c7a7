import { constants } from 'node:zlib'
import fastifyCompress from '@fastify/compress'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

/** Answers smaller than this go out as they are: compressing them costs more than it saves. */
export const compressionThresholdBytes = 1024

const plugin: FastifyPluginAsync = async (app) => {
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
 * Register it before any route: it hooks each route as it is added.
 */
export const compressionPlugin = fp(plugin, { name: 'compression', fastify: '5.x' })
