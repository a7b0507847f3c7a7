// The cases of the route fuzz suite (fuzz-routes.test.ts) for one route: the route's well-formed
// request, and every nasty variant of it (path parameters, query strings, headers, whole bodies,
// each JSON field, and for a stamped signer route the parameters its session key signs).
import { signerActivities } from '@quicklinks/protocol/signer-activities'
import type { InjectOptions } from 'fastify'
import { createStamp } from '../../../signer/src/crypto/stamps/create-stamp.ts'
import { buildStampedBody, stampRequest } from '../../../signer/test/build-signer-test-app.ts'
import {
  type createRandom,
  mutateBody,
  nastyQueryStrings,
  nastyRawBodies,
  nastyUrlValues,
} from './nasty-inputs.ts'
import { type FuzzScene, getPlausibleParam, getSampleBody, getSampleParameters } from './route-samples.ts'

/** A route as Fastify declares it: one method and its URL pattern (`/api/links/:id`). */
export type FuzzRoute = { method: string; url: string }

/** One request of the suite; a stamped one is built (and dated) when it is sent. */
export type FuzzCase = {
  route: FuzzRoute
  url: string
  body?: () => InjectOptions['payload']
  contentType?: string
  headers?: Record<string, string>
}

const typeByPath = new Map<string, string>(
  Object.values(signerActivities).map((entry) => [entry.path, entry.type]),
)

/**
 * The case makers for a scene: `getPlainCase` (the route's well-formed request) and `listCases`
 * (its nasty variants, JSON mutations drawn from `random`). Stamped cases are signed with
 * `sessionKey` when sent, so each is dated then.
 */
export function createFuzzCases(input: {
  scene: FuzzScene
  sessionKey: Uint8Array
  random: ReturnType<typeof createRandom>
}): { getPlainCase(route: FuzzRoute): FuzzCase; listCases(route: FuzzRoute): FuzzCase[] } {
  const { scene, sessionKey, random } = input
  function buildUrl(route: FuzzRoute, override?: { name: string; value: string }): string {
    return route.url.replace(/:(\w+)|\*/g, (whole, name: string | undefined) => {
      const key = name ?? whole
      return override?.name === key ? override.value : encodeURIComponent(getPlausibleParam(key, scene))
    })
  }

  /** The signer path of a route (`whoami`, `public/v1/query/whoami`), or undefined off the signer. */
  function getSignerPath(route: FuzzRoute): string | undefined {
    return route.url.startsWith('/signer/v1/') ? route.url.slice('/signer/v1/'.length) : undefined
  }

  /** A stamped call's body, dated now: `{stampedRequest}`, or Turnkey's raw body with its X-Stamp. */
  function buildStamped(path: string, parameters: unknown): { payload: string; stamp?: string } {
    if (path.startsWith('public/v1/query/')) {
      const body = JSON.stringify({ organizationId: scene.orgId, ...(parameters as Record<string, unknown>) })
      return { payload: body, stamp: createStamp({ privateKey: sessionKey, body }) }
    }
    const type = path.startsWith('public/v1/submit/')
      ? `ACTIVITY_TYPE_${path.slice('public/v1/submit/'.length).toUpperCase()}`
      : (typeByPath.get(path) ?? 'ACTIVITY_TYPE_UNKNOWN')
    const inner = buildStampedBody({
      type,
      organizationId: scene.orgId,
      parameters: {},
      timestampMs: Date.now(),
    })
    const body = inner.replace('"parameters":{}', `"parameters":${JSON.stringify(parameters)}`)
    if (path.startsWith('public/v1/'))
      return { payload: body, stamp: createStamp({ privateKey: sessionKey, body }) }
    return { payload: JSON.stringify(stampRequest(path, sessionKey, body)) }
  }

  /** The route's well-formed request: plausible parameters and its sample (or stamped sample) body. */
  function getPlainCase(route: FuzzRoute): FuzzCase {
    const url = buildUrl(route)
    if (route.method === 'GET' || route.method === 'HEAD') return { route, url }
    const signerPath = getSignerPath(route)
    const sample = getSampleBody(`${route.method} ${route.url}`, scene)
    if (sample !== undefined || signerPath === undefined) {
      return { route, url, body: () => JSON.stringify(sample ?? {}), contentType: 'application/json' }
    }
    return {
      route,
      url,
      contentType: 'application/json',
      ...stampedCase(signerPath, getSampleParameters(signerPath, scene)),
    }
  }

  function listCases(route: FuzzRoute): FuzzCase[] {
    const cases: FuzzCase[] = []
    const plainUrl = buildUrl(route)
    for (const name of [...route.url.matchAll(/:(\w+)|\*/g)].map((match) => match[1] ?? '*')) {
      for (const value of nastyUrlValues) cases.push({ route, url: buildUrl(route, { name, value }) })
    }
    for (const value of nastyUrlValues) cases.push({ route, url: `${plainUrl}?q=${value}&code=${value}` })
    for (const query of nastyQueryStrings) cases.push({ route, url: `${plainUrl}?${query}` })
    cases.push({ route, url: plainUrl, headers: { 'x-fuzz': 'h'.repeat(40_000) } })
    cases.push({ route, url: plainUrl, headers: { 'x-fuzz': 'a\u0000b', 'x-request-id': 'a\u0000b' } })
    if (route.method === 'GET' || route.method === 'HEAD') return cases

    for (const raw of nastyRawBodies) {
      cases.push({
        route,
        url: plainUrl,
        body: () => raw.payload,
        ...(raw.contentType ? { contentType: raw.contentType } : {}),
      })
    }
    const signerPath = getSignerPath(route)
    const sample = getSampleBody(`${route.method} ${route.url}`, scene)
    if (sample !== undefined || signerPath === undefined) {
      for (const body of mutateBody(sample ?? { id: 'x' }, random, 3)) {
        cases.push({
          route,
          url: plainUrl,
          body: () => JSON.stringify(body),
          contentType: 'application/json',
        })
      }
      return cases
    }
    // A stamped signer route: spoil the parameters the session key signs, then the outer body.
    for (const parameters of mutateBody(getSampleParameters(signerPath, scene), random, 1)) {
      cases.push({
        route,
        url: plainUrl,
        contentType: 'application/json',
        ...stampedCase(signerPath, parameters),
      })
    }
    if (!signerPath.startsWith('public/v1/')) {
      const outer = JSON.parse(
        buildStamped(signerPath, getSampleParameters(signerPath, scene)).payload,
      ) as unknown
      for (const body of mutateBody(outer, random, 0)) {
        cases.push({
          route,
          url: plainUrl,
          body: () => JSON.stringify(body),
          contentType: 'application/json',
        })
      }
    }
    return cases
  }

  function stampedCase(path: string, parameters: unknown): Pick<FuzzCase, 'body' | 'headers'> {
    let stamp: string | undefined
    return {
      body: () => {
        const built = buildStamped(path, parameters)
        stamp = built.stamp
        return built.payload
      },
      get headers(): Record<string, string> {
        return stamp === undefined ? {} : { 'x-stamp': stamp }
      },
    }
  }

  return { getPlainCase, listCases }
}
