import type { FastifyPluginAsync } from 'fastify'
import type { SignerDatabase } from '../db/signer-database.ts'
import type { Delivery } from '../delivery.ts'
import { createTotpClock } from '../dev/dev-totp-clock.ts'
import { devTotpClockRoute } from '../dev/dev-totp-clock-route.ts'
import { loadSignerKeyring } from '../services/keyring/load-signer-keyring.ts'
import { deleteExpiredSignerRows } from '../services/maintenance/delete-expired-signer-rows.ts'
import { createOAuthDirectory } from '../services/oauth/oauth-directory.ts'
import type { SignerConfig } from '../signer-config.ts'
import type { SignerContext } from '../signer-context.ts'
import { accountRoutes } from './account-routes.ts'
import { authRoutes } from './auth-routes.ts'
import { mfaRoutes } from './mfa-routes.ts'
import { multiOwnerRoutes } from './multi-owner-routes.ts'
import { oauthRoutes } from './oauth-routes.ts'
import { passkeyRoutes } from './passkey-routes.ts'
import { signerConfigRoutes } from './signer-config-routes.ts'
import { defaultSignerRateLimits, type SignerRateLimits } from './signer-rate-limits.ts'
import { turnkeyRoutes } from './turnkey-routes.ts'
import { walletRoutes } from './wallet-routes.ts'

export type SignerPluginOptions = {
  /** The host's open, migrated database (its migrations include the signer tables). */
  db: SignerDatabase
  config: SignerConfig
  /** Mail and SMS delivery for codes and magic links. */
  delivery: Delivery
  /** The service clock, epoch ms; default `Date.now`. */
  now?: () => number
  /** Per-IP limits of the unauthenticated routes; defaults in signer-rate-limits.ts. */
  limits?: Partial<SignerRateLimits>
}

const sweepIntervalMs = 10 * 60_000

/**
 * The signer service as a Fastify plugin: register it under a prefix (`/signer/v1`) on a host that
 * provides the zod type provider's validator and serializer, an error handler for AppError, and
 * (for per-IP limits) @fastify/rate-limit. Loads the master key and the export signing key at
 * registration, and sweeps expired codes, replay records and session keys every 10 minutes.
 *
 * Registration fails when the master key is invalid or insecure, or when the stored export signing
 * key was sealed under another master key.
 */
export const signerPlugin: FastifyPluginAsync<SignerPluginOptions> = async (app, options) => {
  const now = options.now ?? Date.now
  const keyring = await loadSignerKeyring({
    db: options.db,
    masterKey: options.config.signerMasterKey,
    dataDir: options.config.dataDir,
  })
  app.log.info({ masterKeySource: keyring.masterKeySource }, 'Signer keys loaded')
  // Social login's providers, their endpoints discovered on first use (docs/signer.md#social-login).
  const directory = createOAuthDirectory(options.config.oauthProviders ?? [], now)
  // Movable only in dev mode and never in production, so a deployment's codes follow real time.
  const totpClock = createTotpClock(
    now,
    options.config.devMode === true && options.config.production !== true,
  )
  const context: SignerContext = {
    db: options.db,
    keyring,
    delivery: options.delivery,
    config: options.config,
    now,
    totpClock,
    oauthDirectory: directory,
  }
  const limits = { ...defaultSignerRateLimits, ...options.config.signerRateLimits, ...options.limits }

  // Set by a stamped route's preHandler (create-stamped-route.ts), read by its handler.
  app.decorateRequest('stampedCall', null)
  await app.register(authRoutes, { context, limits })
  await app.register(signerConfigRoutes, { context, limits, directory })
  await app.register(oauthRoutes, { context, limits, directory })
  await app.register(accountRoutes, { context, limits })
  await app.register(passkeyRoutes, { context, limits })
  await app.register(mfaRoutes, { context, limits })
  await app.register(walletRoutes, { context, limits })
  // Experimental, off unless MULTI_OWNER_ENABLED (docs/signer.md#multi-owner).
  await app.register(multiOwnerRoutes, { context, limits })
  // Turnkey's own paths, for stock @turnkey/http clients (docs/signer.md#turnkey-compatibility).
  await app.register(turnkeyRoutes, { context, limits, prefix: '/public/v1' })
  if (totpClock.advance !== undefined) {
    await app.register(devTotpClockRoute, { db: options.db, advance: totpClock.advance })
  }

  const sweeper = setInterval(() => {
    deleteExpiredSignerRows(options.db, now()).catch((error: unknown) =>
      app.log.warn({ err: error }, 'Signer sweep failed'),
    )
  }, sweepIntervalMs)
  sweeper.unref()
  app.addHook('onClose', async () => clearInterval(sweeper))
}
