import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { stampedRequestBodySchema } from '@quicklinks/protocol/stamped-request-body-schema'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { isHex } from 'viem'
import { getActivityOrThrow } from '../services/activities/find-activity.ts'
import { toActivityResponse } from '../services/activities/to-activity-response.ts'
import {
  runSignRawPayloadActivity,
  runWalletExportActivity,
} from '../services/wallets/run-wallet-activity.ts'
import type { SignerRouteOptions } from './auth-routes.ts'
import { createStampedRoute } from './create-stamped-route.ts'

/** Stamped routes that use the wallet: signing, export, and reading activities. */
export const walletRoutes: FastifyPluginAsyncZod<SignerRouteOptions> = async (app, { context }) => {
  const { db } = context

  // Each route's stamp check runs as its preHandler; the handlers read the verified call.
  const stamped = {
    signRawPayload: createStampedRoute(context, signerActivities.signRawPayload),
    getActivity: createStampedRoute(context, signerActivities.getActivity),
    exportWallet: createStampedRoute(context, signerActivities.exportWallet),
    exportWalletAccount: createStampedRoute(context, signerActivities.exportWalletAccount),
  }

  app.post(
    '/sign-payload',
    {
      schema: {
        summary: 'Signs a 32-byte hash (EVM) or a message (Solana) with the wallet; an activity',
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.signRawPayload.answer },
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
      if (!isHex(signature)) throw new Error('Signing activity completed without a signature')
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
        response: { 200: signerActivities.getActivity.answer },
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
        response: { 200: signerActivities.exportWallet.answer },
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
        response: { 200: signerActivities.exportWalletAccount.answer },
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
