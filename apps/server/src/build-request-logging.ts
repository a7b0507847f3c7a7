import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify'
import type { Bindings, ChildLoggerOptions, LogFn } from 'pino'

/** A read slower than this is logged at info like a write. */
const slowRequestMs = 1_000
/** The levels at which a quiet read's line is written (the object is not even built otherwise). */
const debugLevels = new Set(['debug', 'trace'])
type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>

const logMethods = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/**
 * A request's logger that becomes a pino child (with the request id bound) only when something
 * logs through it or changes its level. Most requests log nothing (a probe, a pay page, a link
 * read), and a pino child per request was a measurable part of their cost.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  declare fatal: LogFn
  declare error: LogFn
  declare warn: LogFn
  declare info: LogFn
  declare debug: LogFn
  declare trace: LogFn
  declare silent: LogFn
  #child: FastifyBaseLogger | undefined
  readonly #parent: FastifyBaseLogger
  readonly #bindings: Bindings
  readonly #options: ChildLoggerOptions

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
  }

  /** The pino child, made on first use. */
  getLogger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options)
    return this.#child
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level
  }

  set level(level: string) {
    this.getLogger().level = level
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.getLogger().child(bindings, options)
  }
}

// The log methods on the prototype (one function each, not one per request), each handing its
// arguments to the child as they came (pino reads an object, a message and format arguments).
for (const method of logMethods) {
  Object.defineProperty(LazyRequestLogger.prototype, method, {
    value(this: LazyRequestLogger, ...args: unknown[]) {
      const logger = this.getLogger()
      ;(logger[method] as (...values: unknown[]) => void).apply(logger, args)
    },
  })
}

const createLazyChildLogger: ChildLoggerFactory = (logger, bindings, options) =>
  new LazyRequestLogger(logger, bindings, options)

/**
 * Writes the request's one line when it completes: method, path (no query, see createLogger),
 * address, status and time, under its request id. At info for what an operator needs (every
 * write, every refusal or failure, anything slow); a fast successful read (a probe, a pay page, a
 * link read) only at debug, so hot reads pay no log cost. Fastify's own request lines (incoming,
 * completed, its default error and 404 lines) stay off: the error handler logs failures itself.
 */
class OneLineLogController extends LogController {
  constructor() {
    super({ disableRequestLogging: true })
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const responseTime = reply.elapsedTime
    const isQuietRead =
      (error === null || error === undefined) &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      reply.statusCode < 400 &&
      responseTime < slowRequestMs
    if (!isQuietRead) {
      const line = { req: request, res: reply, responseTime }
      // A response that failed while being written (the socket broke) says why.
      request.log.info(error ? { ...line, err: error } : line, 'request completed')
    } else if (debugLevels.has(request.log.level)) {
      request.log.debug({ req: request, res: reply, responseTime }, 'request completed')
    }
  }
}

/**
 * The Fastify options of the app's request logging: one line per request when it completes
 * (`OneLineLogController`), from a request logger made lazily (`LazyRequestLogger`), so a request
 * that logs nothing costs no log work at all. Spread into `Fastify({...})` beside the logger.
 */
export function buildRequestLogging(): {
  logController: LogController
  childLoggerFactory: ChildLoggerFactory
} {
  return { logController: new OneLineLogController(), childLoggerFactory: createLazyChildLogger }
}
