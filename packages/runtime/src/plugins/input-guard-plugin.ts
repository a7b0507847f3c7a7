import { AppError } from '@quicklinks/core/app-error'
import {
  describeUnstorableText,
  findUnstorableCharacter,
  findUnstorableText,
  type UnstorableTextReason,
} from '@quicklinks/core/find-unstorable-text'
import { createValidationError } from '@quicklinks/core/parse-input-or-throw'
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { toClientError } from './error-handler-plugin.ts'

/**
 * The longest request target (path and query) taken. Node refuses a request line and headers
 * over 16 KiB together before Fastify sees them; this keeps a long query string (which every
 * parser downstream would walk) well under that, and holds `inject()` to the same rule.
 */
export const maxUrlLength = 8 * 1024

/** Node's default `maxHeaderSize`: what a listening server already refuses with 431. */
export const maxHeadersLength = 16 * 1024

/**
 * What is wrong with a request target, or undefined. Fast path: a target without `%` or NUL
 * (nearly every request) is only measured. Otherwise it must decode as UTF-8 (no overlong forms
 * such as `%C0%80`, no encoded surrogates such as `%ED%A0%80`, no stray `%`), and the decoded text
 * must hold no NUL. Never throws.
 */
export function findUrlProblem(url: string): AppError | undefined {
  if (url.length > maxUrlLength) {
    return new AppError('URI_TOO_LONG', {
      message: `request target is ${url.length} characters`,
      userMessage: `The address is too long (at most ${maxUrlLength} characters).`,
    })
  }
  if (!url.includes('%') && !url.includes('\u0000')) return undefined
  let decoded: string
  try {
    decoded = decodeURIComponent(url)
  } catch {
    return new AppError('BAD_REQUEST', {
      message: 'request target is not valid UTF-8 percent-encoding',
      userMessage: 'The address is not valid: its %-escapes must encode UTF-8 text.',
    })
  }
  const reason = findUnstorableCharacter(decoded)
  return reason === undefined ? undefined : refuse('address', reason)
}

/**
 * What is wrong with a request's headers (`rawHeaders`: name, value, name, value…), or undefined:
 * more than `maxHeadersLength` characters in all, or a value holding NUL. A listening Node server
 * refuses both before Fastify runs; `inject()` does not, so the same rule is kept here.
 */
export function findHeaderProblem(rawHeaders: readonly string[]): AppError | undefined {
  let length = 0
  for (const part of rawHeaders) {
    length += part.length + 2
    if (part.includes('\u0000')) return refuse('header', 'NUL')
  }
  if (length <= maxHeadersLength) return undefined
  return new AppError('HEADERS_TOO_LARGE', { message: `headers are ${length} characters` })
}

/**
 * What is wrong with a parsed body, or undefined: a string (a value or a key, at any depth) that
 * Postgres cannot store, or a nesting deeper than core's `maxInputDepth`. A bad field, so a 422
 * VALIDATION_FAILED naming it, like a schema refusal. Never throws.
 */
export function findBodyProblem(body: unknown): AppError | undefined {
  const found = findUnstorableText(body)
  if (found === undefined) return undefined
  return createValidationError(found.path === '' ? 'body' : found.path, describeUnstorableText(found.reason))
}

function refuse(field: string, reason: UnstorableTextReason): AppError {
  return new AppError('BAD_REQUEST', {
    message: `${field} ${describeUnstorableText(reason)}`,
    userMessage: `${field}: ${describeUnstorableText(reason)}.`,
    field,
  })
}

/**
 * Fastify's `frameworkErrors` option: a path the router cannot decode (FST_ERR_BAD_URL) or a path
 * parameter over `maxParamLength` (FST_ERR_MAX_PARAM_LENGTH) answers in the error model, like every
 * other refusal, instead of Fastify's own body.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const clientError = toClientError(error) ?? new AppError('BAD_REQUEST', { cause: error })
  request.log.info({ code: clientError.code, reason: error.message }, 'Request refused')
  void reply.status(clientError.status).send(clientError.toBody())
}

const plugin: FastifyPluginAsync = async (app) => {
  // Every request, 404s included, before CSRF, sessions and body parsing: a refused target never
  // reaches a route, a parser or the database. Callback-style: the common case returns at once.
  app.addHook('onRequest', (request, _reply, done) => {
    done(findUrlProblem(request.url) ?? findHeaderProblem(request.raw.rawHeaders))
  })
  // After any content-type parser, before the route's schema: a 422 naming the field, never a
  // 500 from the database's encoding check.
  app.addHook('preValidation', (request, _reply, done) => {
    done(request.body === undefined || request.body === null ? undefined : findBodyProblem(request.body))
  })
}

/**
 * Input no route should ever see (docs/api.md#unstorable-input): on every request, a target over
 * `maxUrlLength` is 414 URI_TOO_LONG; a target whose %-escapes are not UTF-8 (overlong forms,
 * encoded surrogates) or decode to NUL is 400 BAD_REQUEST; headers over `maxHeadersLength` are 431
 * HEADERS_TOO_LARGE and a header holding NUL is 400; a parsed body holding NUL or a lone surrogate
 * in any string or key, or nesting deeper than 32 levels, is 422 VALIDATION_FAILED naming the field. Register it
 * before any route, on every server (app, standalone signer, frames).
 */
export const inputGuardPlugin = fp(plugin, { name: 'input-guard', fastify: '5.x' })
