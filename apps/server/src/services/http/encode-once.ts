import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { FastifyReply } from 'fastify'

export type Encoding = 'br' | 'gzip'

/** Answers smaller than this go out as they are: compressing them costs more than it saves. */
export const compressionThresholdBytes = 1024

/** A text answer made once (a pay page, an owner's link list) and its compressed forms, made on first use. */
export type EncodableText = { text: string; encoded: Partial<Record<Encoding, Buffer>> }

/** The best of br and gzip the client accepts (q-values honoured), else undefined. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (acceptEncoding === undefined || acceptEncoding === '') return undefined
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim())
    const quality = parameters.find((parameter) => parameter.startsWith('q='))
    weights.set(name, quality === undefined ? 1 : Number(quality.slice(2)) || 0)
  }
  const accepts = (name: Encoding) => (weights.get(name) ?? weights.get('*') ?? 0) > 0
  if (accepts('br')) return 'br'
  return accepts('gzip') ? 'gzip' : undefined
}

/**
 * `answer.text` compressed with `encoding`, compressed on the first call and kept on `answer`, so
 * a cached answer read thousands of times is compressed once (brotli 9, gzip 9).
 */
export function encodeOnce(answer: EncodableText, encoding: Encoding): Buffer {
  let body = answer.encoded[encoding]
  if (body === undefined) {
    body =
      encoding === 'br'
        ? brotliCompressSync(answer.text, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
        : gzipSync(answer.text, { level: 9 })
    answer.encoded[encoding] = body
  }
  return body
}

/** A JSON answer made once from a cached row or list: its body, its text and its compressed forms. */
export type CachedJsonAnswer<Body> = EncodableText & { body: Body }

/**
 * Sends a cached JSON answer as it was made: its text when it is short or the client takes no
 * br or gzip, else its compressed form (made once per answer) with Content-Encoding and Vary. No
 * serializer and no compression hook runs: hot reads answer straight from memory.
 */
export function sendCachedJson(
  acceptEncoding: string | undefined,
  reply: FastifyReply,
  answer: CachedJsonAnswer<unknown>,
): FastifyReply {
  // The length first: a long text needs no byte count; a short one may still pass 1 KB in UTF-8.
  const isLong =
    answer.text.length >= compressionThresholdBytes ||
    Buffer.byteLength(answer.text) >= compressionThresholdBytes
  const encoding = isLong ? pickEncoding(acceptEncoding) : undefined
  reply.type('application/json; charset=utf-8')
  if (encoding === undefined) return reply.send(answer.text)
  return reply
    .header('vary', 'accept-encoding')
    .header('content-encoding', encoding)
    .send(encodeOnce(answer, encoding))
}
