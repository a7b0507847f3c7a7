import { AppError } from '@quicklinks/core/app-error'
import { activityStatuses } from '@quicklinks/protocol/activity-statuses'
import { signerActivities } from '@quicklinks/protocol/signer-activities'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { getAccountOrThrow } from '../services/accounts/get-account-or-throw.ts'
import { findActivity } from '../services/activities/find-activity.ts'
import { runActivity } from '../services/activities/run-activity.ts'
import { toActivityResponse } from '../services/activities/to-activity-response.ts'
import type { VerifiedStampedRequest } from '../services/stamps/verify-stamped-request.ts'
import {
  createWalletExport,
  exportWalletAccountParametersSchema,
  exportWalletParametersSchema,
  planWalletExport,
} from '../services/wallets/create-wallet-export.ts'
import {
  planRawPayloadSignature,
  signRawPayloadParametersSchema,
  signWithPlan,
} from '../services/wallets/sign-raw-payload.ts'
import { useWalletSecret } from '../services/wallets/use-wallet-secret.ts'
import type { SignerContext } from '../signer-context.ts'
import type { SignerRouteOptions } from './auth-routes.ts'
import { createStampedRoute } from './create-stamped-route.ts'
import { stampedRequestBodySchema } from './stamped-request-body-schema.ts'

const activitySchema = z.object({
  id: z.string(),
  type: z.string(),
  status: z.enum(activityStatuses),
  createdAt: z.string(),
  updatedAt: z.string(),
  result: z.record(z.string(), z.unknown()).optional(),
})

function activityInput(
  context: SignerContext,
  verified: VerifiedStampedRequest<Record<string, unknown>>,
  type: string,
) {
  return {
    organizationId: verified.organizationId,
    userId: verified.userId,
    type,
    request: verified.parameters,
    bodyHash: verified.bodyHash,
    now: context.now,
  }
}

/** Stamped routes that use the wallet: signing, export, and reading activities. */
export const walletRoutes: FastifyPluginAsyncZod<SignerRouteOptions> = async (app, { context }) => {
  const { db, keyring } = context

  // Each route's stamp check runs as its preHandler; the handlers read the verified call.
  const stamped = {
    signRawPayload: createStampedRoute(context, {
      type: signerActivities.signRawPayload.type,
      parametersSchema: signRawPayloadParametersSchema,
    }),
    getActivity: createStampedRoute(context, {
      type: signerActivities.getActivity.type,
      parametersSchema: z.object({ activityId: z.string().min(1).max(64) }),
    }),
    exportWallet: createStampedRoute(context, {
      type: signerActivities.exportWallet.type,
      parametersSchema: exportWalletParametersSchema,
    }),
    exportWalletAccount: createStampedRoute(context, {
      type: signerActivities.exportWalletAccount.type,
      parametersSchema: exportWalletAccountParametersSchema,
    }),
  }

  /**
   * The two export routes after verification: checks the wallet id or address against the user's
   * wallet (404 otherwise), then runs an activity whose result is the export bundle.
   */
  const exportAsActivity = async (
    verified: VerifiedStampedRequest<{ targetPublicKey: string }>,
    type: string,
    exportRequest: { walletId: string } | { address: string },
  ) => {
    const account = await getAccountOrThrow(context.db, verified.userId)
    const kind = planWalletExport(account, exportRequest)
    const activity = await runActivity(db, activityInput(context, verified, type), async () => ({
      exportBundle: await useWalletSecret(
        db,
        { masterKey: keyring.masterKey, userId: account.userId },
        (secret) =>
          createWalletExport(secret, kind, {
            targetPublicKey: verified.parameters.targetPublicKey,
            organizationId: verified.organizationId,
            signingKey: keyring.exportSigningKey,
          }),
      ),
    }))
    return { activity: toActivityResponse(activity, { withResult: true }) }
  }

  app.post(
    '/sign-payload',
    {
      schema: {
        summary: 'Signs a 32-byte hash (EVM) or a message (Solana) with the wallet; an activity',
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: z.object({ signature: z.string(), activity: activitySchema }) },
      },
      preHandler: stamped.signRawPayload.verifyStamp,
    },
    // POST /signer/v1/sign-payload: sign raw bytes with the user's EVM or Solana account.
    async (request) => {
      const verified = stamped.signRawPayload.getVerified(request)
      const account = await getAccountOrThrow(context.db, verified.userId)
      const plan = planRawPayloadSignature(account, verified.parameters)
      const activity = await runActivity(
        db,
        activityInput(context, verified, signerActivities.signRawPayload.type),
        async () => ({
          signature: await useWalletSecret(
            db,
            { masterKey: keyring.masterKey, userId: account.userId },
            (secret) => signWithPlan(secret, plan),
          ),
        }),
      )
      const signature = activity.result?.signature
      if (typeof signature !== 'string') throw new Error('Signing activity completed without a signature')
      return { signature, activity: toActivityResponse(activity, { withResult: false }) }
    },
  )

  app.post(
    '/get-activity',
    {
      schema: {
        summary: "One of the organization's activities, with its result",
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: z.object({ activity: activitySchema }) },
      },
      preHandler: stamped.getActivity.verifyStamp,
    },
    // POST /signer/v1/get-activity: an activity's status and result, for polling.
    async (request) => {
      const verified = stamped.getActivity.getVerified(request)
      const activity = z.uuid().safeParse(verified.parameters.activityId).success
        ? await findActivity(db, {
            activityId: verified.parameters.activityId,
            organizationId: verified.organizationId,
          })
        : undefined
      if (activity === undefined) {
        throw new AppError('NOT_FOUND', { userMessage: 'No activity with that id in this organization.' })
      }
      return { activity: toActivityResponse(activity, { withResult: true }) }
    },
  )

  app.post(
    '/export-wallet',
    {
      schema: {
        summary: "Exports the wallet's seed phrase, encrypted to the export frame and signed; an activity",
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: z.object({ activity: activitySchema }) },
      },
      preHandler: stamped.exportWallet.verifyStamp,
    },
    // POST /signer/v1/export-wallet: the mnemonic in an export bundle only the export frame opens.
    async (request) => {
      const verified = stamped.exportWallet.getVerified(request)
      return exportAsActivity(verified, signerActivities.exportWallet.type, {
        walletId: verified.parameters.walletId,
      })
    },
  )

  app.post(
    '/export-wallet-account',
    {
      schema: {
        summary: "Exports one account's private key, encrypted to the export frame and signed; an activity",
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: z.object({ activity: activitySchema }) },
      },
      preHandler: stamped.exportWalletAccount.verifyStamp,
    },
    // POST /signer/v1/export-wallet-account: an account's private key in an export bundle.
    async (request) => {
      const verified = stamped.exportWalletAccount.getVerified(request)
      return exportAsActivity(verified, signerActivities.exportWalletAccount.type, {
        address: verified.parameters.address,
      })
    },
  )
}
