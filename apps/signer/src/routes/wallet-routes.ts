import { activityStatuses } from '@quicklinks/protocol/activity-statuses'
import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { stampedRequestBodySchema } from '@quicklinks/protocol/stamped-request-body-schema'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { getActivityOrThrow } from '../services/activities/find-activity.ts'
import { toActivityResponse } from '../services/activities/to-activity-response.ts'
import {
  exportWalletAccountParametersSchema,
  exportWalletParametersSchema,
} from '../services/wallets/create-wallet-export.ts'
import {
  runSignRawPayloadActivity,
  runWalletExportActivity,
} from '../services/wallets/run-wallet-activity.ts'
import { signRawPayloadParametersSchema } from '../services/wallets/sign-raw-payload.ts'
import type { SignerRouteOptions } from './auth-routes.ts'
import { createStampedRoute } from './create-stamped-route.ts'

const activitySchema = z.object({
  id: z.string(),
  type: z.string(),
  status: z.enum(activityStatuses),
  createdAt: z.string(),
  updatedAt: z.string(),
  result: z.record(z.string(), z.unknown()).optional(),
})

/** Stamped routes that use the wallet: signing, export, and reading activities. */
export const walletRoutes: FastifyPluginAsyncZod<SignerRouteOptions> = async (app, { context }) => {
  const { db } = context

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
      const activity = await runSignRawPayloadActivity(
        context,
        verified,
        signerActivities.signRawPayload.type,
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
      const activity = await getActivityOrThrow(db, {
        activityId: verified.parameters.activityId,
        organizationId: verified.organizationId,
      })
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
      const activity = await runWalletExportActivity(context, verified, signerActivities.exportWallet.type, {
        walletId: verified.parameters.walletId,
      })
      return { activity: toActivityResponse(activity, { withResult: true }) }
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
      const activity = await runWalletExportActivity(
        context,
        verified,
        signerActivities.exportWalletAccount.type,
        { address: verified.parameters.address },
      )
      return { activity: toActivityResponse(activity, { withResult: true }) }
    },
  )
}
