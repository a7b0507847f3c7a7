import { AppError } from '@quicklinks/core/app-error'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { SignerDatabase } from '../db/signer-database.ts'
import { findAccountByEvmAddress } from '../services/accounts/find-account.ts'
import type { TotpClock } from './dev-totp-clock.ts'

// At most ten minutes per call: a few steps, never past every code's lifetime by a slip. Zero reads the offset.
// The account by its wallet's EVM address: every account has one, a provider-only account no e-mail.
const advanceRequestSchema = z.object({
  address: z.string().min(1).max(100),
  advanceMs: z.number().int().min(0).max(600_000),
})
const advanceResponseSchema = z.object({ data: z.object({ offsetMs: z.number().int() }) })

export type DevTotpClockRouteOptions = {
  db: SignerDatabase
  /** The movable TOTP clock's `advance` (signer-plugin.ts registers this route only in dev mode). */
  advance: NonNullable<TotpClock['advance']>
}

/** Development-only: moves the clock an account's (by its wallet's EVM address) authenticator codes are checked at (docs/signer.md#multi-factor). */
export const devTotpClockRoute: FastifyPluginAsyncZod<DevTotpClockRouteOptions> = async (app, options) => {
  app.post(
    '/dev/totp-clock',
    {
      schema: {
        summary: "Moves an account's authenticator-code clock forward (dev mode only)",
        tags: ['dev'],
        body: advanceRequestSchema,
        response: { 200: advanceResponseSchema },
      },
    },
    // POST /signer/v1/dev/totp-clock: pushes the account's TOTP clock `advanceMs` on; answers its offset.
    async (request) => {
      const account = await findAccountByEvmAddress(options.db, request.body.address)
      if (account === undefined)
        throw new AppError('NOT_FOUND', { userMessage: 'No account has that address.' })
      return { data: { offsetMs: options.advance(account.userId, request.body.advanceMs) } }
    },
  )
}
