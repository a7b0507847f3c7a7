import { AppError, codeForStatus, type ErrorCode } from '@quicklinks/core/app-error'
import { createValidationError } from '@quicklinks/core/parse-input-or-throw'
import type { FastifyError, FastifyPluginAsync, FastifySchemaValidationError } from 'fastify'
import fp from 'fastify-plugin'

/**
 * Maps anything thrown by a route, hook or plugin to the AppError the client will see, or
 * undefined when it is an unexpected failure (a bug or an outage) that must stay hidden.
 */
export function toClientError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error
  if (!(error instanceof Error)) return undefined
  const databaseRefusal = fromDatabaseEncodingError(error)
  if (databaseRefusal !== undefined) return databaseRefusal
  const fastifyError = error as Partial<FastifyError>
  if (Array.isArray(fastifyError.validation) && fastifyError.validation.length > 0) {
    return fromSchemaValidation(fastifyError.validation, fastifyError.validationContext)
  }
  const status = fastifyError.statusCode
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined
  const code = codeForClientStatus(status)
  // Fastify's content-type parser errors describe the request itself and are safe to show.
  const isParserError = typeof fastifyError.code === 'string' && fastifyError.code.startsWith('FST_ERR_CTP_')
  return new AppError(code, {
    message: error.message,
    cause: error,
    ...(isParserError ? { userMessage: error.message } : {}),
  })
}

function fromSchemaValidation(issues: FastifySchemaValidationError[], context: string | undefined): AppError {
  const [issue] = issues
  const path = (issue?.instancePath ?? '').split('/').filter(Boolean)
  // A required property Ajv reports on its parent; name the missing property itself.
  const missing =
    issue?.params && typeof issue.params.missingProperty === 'string'
      ? issue.params.missingProperty
      : undefined
  if (missing) path.push(missing)
  const field = path.length > 0 ? path.join('.') : (context ?? 'body')
  return createValidationError(field, issue?.message ?? 'is not valid')
}

/**
 * SQLSTATEs Postgres (and PGlite) raise for text it cannot take: 22021 character_not_in_repertoire
 * ("invalid byte sequence for encoding UTF8: 0x00"), 22P05 untranslatable_character (a \u0000
 * escape in jsonb), 54001 statement_too_complex (jsonb nested past the stack depth limit). The
 * input guard (input-guard-plugin.ts) refuses such input first; this is the net behind it, so a
 * value that slipped past (a decoded inner body, a header) is still the caller's 400, not a 500.
 */
const databaseInputErrorCodes = new Set(['22021', '22P05', '54001'])

function fromDatabaseEncodingError(error: Error): AppError | undefined {
  const refusal = AppError.walk(error, (link) => {
    const code = typeof link === 'object' && link !== null ? (link as { code?: unknown }).code : undefined
    return typeof code === 'string' && databaseInputErrorCodes.has(code)
  })
  if (refusal === undefined) return undefined
  return new AppError('BAD_REQUEST', {
    message: 'the database refused a value of the request (encoding or nesting)',
    userMessage: 'The request holds text that cannot be stored (a NUL character or invalid Unicode).',
    cause: error,
  })
}

function codeForClientStatus(status: number): ErrorCode {
  if (status === 413) return 'PAYLOAD_TOO_LARGE'
  if (status === 414) return 'URI_TOO_LONG'
  if (status === 431) return 'HEADERS_TOO_LARGE'
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE'
  return codeForStatus(status)
}

const plugin: FastifyPluginAsync = async (app) => {
  app.setErrorHandler((error, request, reply) => {
    const clientError = toClientError(error)
    if (clientError === undefined) {
      // The request id is bound to request.log; headers go through the logger's redaction.
      request.log.error({ err: error, headers: request.headers }, 'Unhandled error')
      return reply.status(500).send(new AppError('INTERNAL').toBody())
    }
    if (clientError.status >= 500) request.log.error({ err: error }, clientError.message)
    else request.log.info({ code: clientError.code, reason: clientError.message }, 'Request refused')
    return reply.status(clientError.status).send(clientError.toBody())
  })
}

/**
 * The one error handler: AppError → its status and body; validation failures → 422
 * VALIDATION_FAILED naming the field; Fastify client errors → their 4xx; anything else → a
 * generic 500 logged with the request id, never a message or stack to the client.
 */
export const errorHandlerPlugin = fp(plugin, { name: 'error-handler', fastify: '5.x' })
