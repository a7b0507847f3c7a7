import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

export type Encoding = 'br' | 'gzip'

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
