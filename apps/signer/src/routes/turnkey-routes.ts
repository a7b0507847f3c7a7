import { type SignerCallStepUp, signerActivities } from '@quicklinks/protocol/signer-activities'
import {
  turnkeyQuerySchemas,
  turnkeyRawBodyMaxLength,
  turnkeyRawBodySchema,
} from '@quicklinks/protocol/signer-routes'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { z } from 'zod'
import { getAccountOrThrow } from '../services/accounts/get-account-or-throw.ts'
import { getActivityOrThrow } from '../services/activities/find-activity.ts'
import { verifyStampedQuery, verifyStampedRequest } from '../services/stamps/verify-stamped-request.ts'
import { getTurnkeyWallet } from '../services/turnkey/get-turnkey-wallet.ts'
import { toTurnkeyActivity } from '../services/turnkey/to-turnkey-activity.ts'
import {
  runSignRawPayloadActivity,
  runWalletExportActivity,
} from '../services/wallets/run-wallet-activity.ts'
import type { SignerRouteOptions } from './auth-routes.ts'

/** Stock Turnkey clients stamp the body and send no CSRF token: the stamp is the authentication. */
const routeOptions = {
  schema: { tags: ['signer', 'turnkey'], body: turnkeyRawBodySchema },
  config: { isCsrfExempt: true },
}

/**
 * Turnkey's own API paths (`/public/v1/query/…`, `/public/v1/submit/…`) over the signer's handlers,
 * so a stock `@turnkey/http` TurnkeyClient with an ApiKeyStamper holding a session key works against
 * the signer (docs/signer.md#turnkey-compatibility). Bodies are Turnkey's: queries
 * `{organizationId, …}`, bound to a live session key and held to the 60 s window when they carry a
 * `timestampMs` (required with SIGNER_QUERY_TIMESTAMP_REQUIRED; verifyStampedQuery);
 * activities `{type, timestampMs, organizationId, parameters}` with the 60 s window and the replay
 * store (verifyStampedRequest). Answers are Turnkey's shapes; errors are Turnkey's
 * `{code, message, details}` so TurnkeyRequestError shows them.
 */
export const turnkeyRoutes: FastifyPluginAsyncZod<SignerRouteOptions> = async (app, { context }) => {
  // Keep the body as the exact string the stamper signed (this scope only).
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: turnkeyRawBodyMaxLength },
    (_request, body, done) => done(null, body),
  )
  // Turnkey clients read an error as `{code, message, details}` (rpcStatus), not our `{error: …}`.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload
    try {
      const { error } = JSON.parse(payload) as {
        error?: { code: string; message: string; details?: Record<string, unknown> }
      }
      if (error === undefined) return payload
      return JSON.stringify({
        code: error.code,
        message: error.message,
        details: error.details === undefined ? [] : [error.details],
      })
    } catch {
      return payload
    }
  })

  const queryOf = <Schema extends z.core.$ZodType>(
    request: { headers: Record<string, string | string[] | undefined>; body: string },
    schema: Schema,
  ) => {
    const header = request.headers['x-stamp']
    return verifyStampedQuery(
      context,
      { stampHeader: typeof header === 'string' ? header : undefined, body: request.body },
      schema,
    )
  }
  const activityOf = <Schema extends z.core.$ZodType>(
    request: { url: string; headers: Record<string, string | string[] | undefined>; body: string },
    activity: { type: string; parameters: Schema; stepUp: SignerCallStepUp },
  ) => {
    const header = request.headers['x-stamp']
    return verifyStampedRequest(
      context,
      {
        url: request.url,
        body: request.body,
        stamp: { stampHeaderName: 'X-Stamp', stampHeaderValue: typeof header === 'string' ? header : '' },
      },
      { type: activity.type, parametersSchema: activity.parameters, stepUp: activity.stepUp },
    )
  }

  app.post(
    '/query/whoami',
    {
      ...routeOptions,
      schema: { ...routeOptions.schema, summary: "Turnkey's whoami: the stamping key's user" },
    },
    // POST /signer/v1/public/v1/query/whoami: Turnkey's GetWhoami, bound to a live session key.
    async (request) => {
      const verified = await queryOf(request, turnkeyQuerySchemas.whoami)
      const account = await getAccountOrThrow(context.db, verified.userId)
      return {
        organizationId: account.organizationId,
        organizationName: account.organizationId,
        userId: account.userId,
        username: account.email ?? account.phone ?? account.userId,
      }
    },
  )

  app.post(
    '/query/list_wallets',
    {
      ...routeOptions,
      schema: { ...routeOptions.schema, summary: "Turnkey's GetWallets: the user's one wallet" },
    },
    // POST /signer/v1/public/v1/query/list_wallets: Turnkey's GetWallets.
    async (request) => {
      const verified = await queryOf(request, turnkeyQuerySchemas.listWallets)
      const account = await getAccountOrThrow(context.db, verified.userId)
      const { wallet } = await getTurnkeyWallet(context.db, account)
      return { wallets: [wallet] }
    },
  )

  app.post(
    '/query/list_wallet_accounts',
    {
      ...routeOptions,
      schema: {
        ...routeOptions.schema,
        summary: "Turnkey's GetWalletAccounts: the wallet's EVM and Solana accounts",
      },
    },
    // POST /signer/v1/public/v1/query/list_wallet_accounts: Turnkey's GetWalletAccounts.
    async (request) => {
      const verified = await queryOf(request, turnkeyQuerySchemas.listWalletAccounts)
      const account = await getAccountOrThrow(context.db, verified.userId)
      const { walletId, includeWalletDetails } = verified.parameters
      // Another wallet id lists nothing, as Turnkey answers for a wallet without accounts.
      if (walletId !== undefined && walletId !== account.walletId) return { accounts: [] }
      const { wallet, accounts } = await getTurnkeyWallet(context.db, account)
      return {
        accounts:
          includeWalletDetails === true
            ? accounts.map((item) => ({ ...item, walletDetails: wallet }))
            : accounts,
      }
    },
  )

  app.post(
    '/query/get_activity',
    { ...routeOptions, schema: { ...routeOptions.schema, summary: "Turnkey's GetActivity" } },
    // POST /signer/v1/public/v1/query/get_activity: an activity in Turnkey's shape, for polling.
    async (request) => {
      const verified = await queryOf(request, turnkeyQuerySchemas.getActivity)
      const activity = await getActivityOrThrow(context.db, {
        activityId: verified.parameters.activityId,
        organizationId: verified.organizationId,
      })
      return { activity: toTurnkeyActivity(activity) }
    },
  )

  app.post(
    '/submit/sign_raw_payload',
    {
      ...routeOptions,
      schema: { ...routeOptions.schema, summary: "Turnkey's SignRawPayload (V2); an activity" },
    },
    // POST /signer/v1/public/v1/submit/sign_raw_payload: sign with the user's EVM or Solana account.
    async (request) => {
      const verified = await activityOf(request, signerActivities.signRawPayload)
      const activity = await runSignRawPayloadActivity(
        context,
        verified,
        signerActivities.signRawPayload.type,
      )
      return { activity: toTurnkeyActivity(activity) }
    },
  )

  app.post(
    '/submit/export_wallet',
    { ...routeOptions, schema: { ...routeOptions.schema, summary: "Turnkey's ExportWallet; an activity" } },
    // POST /signer/v1/public/v1/submit/export_wallet: the mnemonic sealed to targetPublicKey.
    async (request) => {
      const verified = await activityOf(request, signerActivities.exportWallet)
      const activity = await runWalletExportActivity(context, verified, signerActivities.exportWallet.type, {
        walletId: verified.parameters.walletId,
      })
      return { activity: toTurnkeyActivity(activity) }
    },
  )

  app.post(
    '/submit/export_wallet_account',
    {
      ...routeOptions,
      schema: { ...routeOptions.schema, summary: "Turnkey's ExportWalletAccount; an activity" },
    },
    // POST /signer/v1/public/v1/submit/export_wallet_account: one account's key sealed to targetPublicKey.
    async (request) => {
      const verified = await activityOf(request, signerActivities.exportWalletAccount)
      const activity = await runWalletExportActivity(
        context,
        verified,
        signerActivities.exportWalletAccount.type,
        { address: verified.parameters.address },
      )
      return { activity: toTurnkeyActivity(activity) }
    },
  )
}
