import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifySwagger from '@fastify/swagger'
import { repoRoot } from '@quicklinks/runtime/env'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod'

function readProductVersion(): string {
  const packageJson: unknown = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'))
  const version = (packageJson as { version?: unknown }).version
  return typeof version === 'string' ? version : '0.0.0'
}

const plugin: FastifyPluginAsync = async (app) => {
  // A route that names API-key scopes takes a session cookie or a key with one of them; the
  // document says which (docs/api.md#api-keys). Routes are seen here as they are added.
  app.addHook('onRoute', (route) => {
    const scopes = route.config?.apiKeyScopes
    if (scopes === undefined || route.schema === undefined) return
    route.schema = { ...route.schema, security: [{ sessionCookie: [] }, { apiKey: [...scopes] }] }
  })
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quick Links API',
        description:
          'The application API of Quick Links. A browser signs in with the session cookie, and its writes need the X-CSRF-Token header (see GET /health). A server calls the routes that list API-key scopes with `Authorization: Bearer qlk_…` and no CSRF token (docs/api.md#api-keys).',
        version: readProductVersion(),
      },
      components: {
        securitySchemes: {
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'ql_session' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key made in Settings → API keys (qlk_…). The scopes listed on a route are those of which the key needs one.',
          },
        },
      },
      servers: [{ url: app.config.publicOrigin }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  })
}

/**
 * OpenAPI 3.1 from the routes' zod schemas (served by `openapiDocumentRoute`). Register it at the
 * root before any route so every route is seen.
 */
export const openapiPlugin = fp(plugin, { name: 'openapi', fastify: '5.x', dependencies: ['config'] })

/**
 * GET /api/openapi.json: the OpenAPI document generated from the routes' zod schemas. Registered
 * apart from `openapiPlugin` (which collects the routes at the root), inside the API scope whose
 * compression it needs: the document is tens of kilobytes.
 */
export const openapiDocumentRoute: FastifyPluginAsync = async (app) => {
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger())
}
