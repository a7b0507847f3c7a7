// The nasty inputs of the route fuzz suite (fuzz-routes.test.ts): values for path parameters and
// query strings (already percent-encoded, as they travel), values for JSON fields, whole bodies
// under wrong or broken content types, and the mutations that put them in a route's sample body.
// Everything random comes from one seeded generator, so a run is the same run every time.

/** A seeded pseudo-random generator (mulberry32): the same seed gives the same sequence. */
export function createRandom(seed: number): { next(): number; pick<T>(items: readonly T[]): T } {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)]
      if (item === undefined) throw new Error('pick from an empty list')
      return item
    },
  }
}

/** Percent-encoded values for a path segment or a query value. */
export const nastyUrlValues = [
  'a%00b', // NUL
  '%00',
  '%C0%80', // overlong NUL
  '%C0%AF', // overlong '/'
  '%ED%A0%80', // an encoded lone surrogate
  '%F4%90%80%80', // beyond U+10FFFF
  '%FF%FE',
  '%E2%82', // a truncated sequence
  '%', // a stray percent
  '%zz',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  "'%20OR%201=1--",
  '%F0%9F%92%A9', // a valid emoji, as a control
  '-1',
  '99999999999999999999999999',
  '0x',
  'x'.repeat(101), // past Fastify's maxParamLength
] as const

/** Query strings, without the `?`, that are nasty as a whole. */
export const nastyQueryStrings = [
  `q=${'a'.repeat(20_000)}`, // a huge query string
  Array.from({ length: 2_000 }, (_, index) => `k${index}=v`).join('&'),
  'q=%00&q=1&q=%C0%80',
  '__proto__[polluted]=1&constructor[prototype][x]=1',
  'q=%ED%B0%80',
] as const

/** A JSON value nested `depth` levels deep. */
export function buildNested(depth: number): unknown {
  let value: unknown = 'leaf'
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { a: value }
  return value
}

/** Values a JSON field may be swapped for. */
export const nastyJsonValues: readonly unknown[] = [
  'a\u0000b',
  '\u0000',
  '\ud800', // a lone high surrogate
  'x\udc00y', // a lone low surrogate
  '\u0000'.repeat(64),
  'A'.repeat(100_000),
  '0',
  '8453',
  '-1',
  '1e400',
  '0x',
  ' ',
  '',
  '\u202e\u2028',
  "' OR 1=1 --",
  '%_%',
  0,
  -1,
  1e308,
  2 ** 53 + 1,
  0.5,
  true,
  null,
  [],
  {},
  ['a\u0000b'],
  { 'a\u0000b': 'c' },
  buildNested(40),
]

/** A request body sent as it is, with its content type (undefined: no header). */
export type RawBody = { contentType: string | undefined; payload: string | Buffer }

const overlongInJson = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc0, 0x80]), Buffer.from('"}')])
const invalidUtf8InJson = Buffer.concat([
  Buffer.from('{"a":"'),
  Buffer.from([0xed, 0xa0, 0x80, 0xff]),
  Buffer.from('"}'),
])

/** Whole bodies: broken JSON, deep nesting, escapes JSON.parse turns into NUL or lone surrogates, wrong types. */
export const nastyRawBodies: readonly RawBody[] = [
  { contentType: 'application/json', payload: `${'['.repeat(5_000)}${']'.repeat(5_000)}` },
  { contentType: 'application/json', payload: `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}` },
  { contentType: 'application/json', payload: '{"a":"\\u0000"}' },
  { contentType: 'application/json', payload: '{"\\u0000":"a"}' },
  { contentType: 'application/json', payload: '{"a":"\\ud800"}' },
  { contentType: 'application/json', payload: overlongInJson },
  { contentType: 'application/json', payload: invalidUtf8InJson },
  { contentType: 'application/json', payload: '{' },
  { contentType: 'application/json', payload: '' },
  { contentType: 'application/json', payload: 'null' },
  { contentType: 'application/json', payload: '[]' },
  { contentType: 'application/json', payload: '"\\u0000"' },
  { contentType: 'application/json', payload: '1e999' },
  { contentType: 'application/json', payload: '{"__proto__":{"polluted":1}}' },
  { contentType: 'application/json', payload: '{"constructor":{"prototype":{"polluted":1}}}' },
  { contentType: 'application/json; charset=latin1', payload: '{"a":"b"}' },
  { contentType: 'text/plain', payload: 'a\u0000b' },
  { contentType: 'text/plain', payload: '{"a":"b"}' },
  { contentType: 'application/x-www-form-urlencoded', payload: 'a=%00&b=%C0%80' },
  {
    contentType: 'multipart/form-data; boundary=x',
    payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--',
  },
  { contentType: 'application/octet-stream', payload: Buffer.from([0, 1, 2, 0xff]) },
  { contentType: undefined, payload: '{"a":"b"}' },
]

/** Every path to a leaf (or an empty object or array) of a JSON value, as key lists. */
export function listLeafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value) && value.length > 0) {
    return value.flatMap((item, index) => listLeafPaths(item, [...prefix, index]))
  }
  if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
    return Object.entries(value).flatMap(([key, item]) => listLeafPaths(item, [...prefix, key]))
  }
  return [prefix]
}

/** A copy of `value` with the leaf at `path` replaced (the root itself when `path` is empty). */
export function replaceAt(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  const [head, ...rest] = path
  if (head === undefined) return replacement
  if (Array.isArray(value)) {
    return value.map((item, index) => (index === head ? replaceAt(item, rest, replacement) : item))
  }
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
  return { ...record, [head]: replaceAt(record[head], rest, replacement) }
}

/**
 * The mutations of a sample body: each leaf swapped for every string nasty (NUL, lone surrogates)
 * and for `extraPerLeaf` more values drawn with `random`, plus the sample with a NUL key added.
 */
export function mutateBody(
  sample: unknown,
  random: ReturnType<typeof createRandom>,
  extraPerLeaf: number,
): unknown[] {
  const always = nastyJsonValues.slice(0, 4)
  const mutations: unknown[] = []
  for (const path of listLeafPaths(sample)) {
    const values = [...always]
    for (let index = 0; index < extraPerLeaf; index += 1) values.push(random.pick(nastyJsonValues))
    for (const value of values) mutations.push(replaceAt(sample, path, value))
  }
  if (typeof sample === 'object' && sample !== null && !Array.isArray(sample)) {
    mutations.push({ ...sample, 'k\u0000': 1 }, { ...sample, '\ud800': 'x' })
  }
  return mutations
}
