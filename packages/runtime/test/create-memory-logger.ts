import type { FastifyBaseLogger } from 'fastify'
import { createLogger } from '../src/create-logger.ts'

/**
 * The runtime's logger (redaction and all) at level info, writing each line parsed into `lines`:
 * a bare test host's `loggerInstance`, typed as Fastify's base logger like the apps' own.
 */
export function createMemoryLogger(lines: Record<string, unknown>[]): FastifyBaseLogger {
  return createLogger('info', {
    write: (line: string) => {
      lines.push(JSON.parse(line) as Record<string, unknown>)
    },
  })
}
