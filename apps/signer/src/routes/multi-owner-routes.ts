import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { stampedOrMemberApprovalBodySchema } from '@quicklinks/protocol/signer-call-schemas'
import { stampedRequestBodySchema } from '@quicklinks/protocol/stamped-request-body-schema'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { z } from 'zod/mini'
import { toActivityResponse } from '../services/activities/to-activity-response.ts'
import {
  approveWithMemberSignature,
  approveWithSession,
  assertMultiOwnerEnabled,
  createMultiOwner,
  proposeQuorumActivity,
} from '../services/multi-owner/run-multi-owner-activity.ts'
import type { StampedRequest } from '../services/stamps/verify-stamped-request.ts'
import type { SignerRouteOptions } from './auth-routes.ts'
import { createStampedRoute, type StampedCall, type StampedRoute } from './create-stamped-route.ts'

/** A preHandler that checks the stamp only when the body is a stamped request. */
function verifyStampIfStamped(route: Pick<StampedRoute<z.core.$ZodType>, 'verifyStamp'>) {
  return async (request: {
    body: { stampedRequest: StampedRequest } | { approval: unknown }
    stampedCall: StampedCall | null
  }): Promise<void> => {
    if ('stampedRequest' in request.body) {
      const call = { body: request.body, stampedCall: request.stampedCall }
      await route.verifyStamp(call)
      request.stampedCall = call.stampedCall
    }
  }
}

/**
 * The experimental multi-owner paths (docs/signer.md#multi-owner), all refused with 403 unless
 * MULTI_OWNER_ENABLED is on: an organization's EVM signer members, its root quorum, and the
 * activities that quorum approves (CONSENSUS_NEEDED until it has).
 */
export const multiOwnerRoutes: FastifyPluginAsyncZod<SignerRouteOptions> = async (app, { context }) => {
  // Before anything else, body validation included: off means off.
  app.addHook('onRequest', async () => {
    assertMultiOwnerEnabled(context)
  })

  const stamped = {
    create: createStampedRoute(context, signerActivities.multiOwnerCreate),
    prepareAdd: createStampedRoute(context, signerActivities.multiOwnerPrepareAdd),
    add: createStampedRoute(context, signerActivities.multiOwnerAdd),
    prepareDelete: createStampedRoute(context, signerActivities.multiOwnerPrepareDelete),
    delete: createStampedRoute(context, signerActivities.multiOwnerDelete),
    updateRootQuorum: createStampedRoute(context, signerActivities.multiOwnerUpdateRootQuorum),
    signRawPayload: createStampedRoute(context, signerActivities.multiOwnerSignRawPayload),
  }

  app.post(
    `/${signerActivities.multiOwnerCreate.path}`,
    {
      schema: {
        summary: 'Makes the organization multi-owner: EVM signer members, a root quorum, the account',
        tags: ['signer', 'multi-owner'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.multiOwnerCreate.answer },
      },
      preHandler: stamped.create.verifyStamp,
    },
    // POST /signer/v1/multi-owner-create: the wallet first, then the given members.
    async (request) => {
      const verified = stamped.create.getVerified(request)
      const activity = await createMultiOwner(context, verified)
      const result = activity.result as {
        evmSignerAddress: `0x${string}`
        members: { evmSignerAddress: `0x${string}` }[]
        rootQuorumThreshold: number
        accountAddress: `0x${string}`
      }
      return {
        result: {
          orgId: verified.organizationId,
          evmSignerAddress: result.evmSignerAddress,
          members: result.members,
          rootQuorumThreshold: result.rootQuorumThreshold,
          accountAddress: result.accountAddress,
        },
        activity: toActivityResponse(activity, { withResult: true }),
      }
    },
  )

  // prepare-add / prepare-delete: record the proposal; the members sign its approval message.
  for (const [route, path, type, summary] of [
    [
      stamped.prepareAdd,
      signerActivities.multiOwnerPrepareAdd.path,
      signerActivities.multiOwnerAdd.type,
      'Proposes adding EVM signer members; answers the message each member signs',
    ],
    [
      stamped.prepareDelete,
      signerActivities.multiOwnerPrepareDelete.path,
      signerActivities.multiOwnerDelete.type,
      'Proposes removing EVM signer members; answers the message each member signs',
    ],
  ] as const) {
    app.post(
      `/${path}`,
      {
        schema: {
          summary,
          tags: ['signer', 'multi-owner'],
          body: stampedRequestBodySchema,
          response: { 200: signerActivities.multiOwnerPrepareAdd.answer },
        },
        preHandler: route.verifyStamp,
      },
      async (request) => {
        const verified = route.getVerified(request)
        const activity = await proposeQuorumActivity(context, verified, { type, walletApproves: false })
        return { activity: toActivityResponse(activity, { withResult: true }) }
      },
    )
  }

  // add / delete: the session's approval of a prepared activity; update-root-quorum /
  // sign-raw-payload: asked by the session (its approval counted). At each of the four paths a
  // member's signed approval is counted too, and the activity runs at quorum.
  for (const [route, path, type, bySession, summary] of [
    [
      stamped.add,
      signerActivities.multiOwnerAdd.path,
      signerActivities.multiOwnerAdd.type,
      'approve',
      'Approves a prepared member addition (the session, or a member by signature); runs it at quorum',
    ],
    [
      stamped.delete,
      signerActivities.multiOwnerDelete.path,
      signerActivities.multiOwnerDelete.type,
      'approve',
      'Approves a prepared member removal (the session, or a member by signature); runs it at quorum',
    ],
    [
      stamped.updateRootQuorum,
      signerActivities.multiOwnerUpdateRootQuorum.path,
      signerActivities.multiOwnerUpdateRootQuorum.type,
      'propose',
      'Changes the root quorum threshold once the quorum approves (a member by signature at the same path)',
    ],
    [
      stamped.signRawPayload,
      signerActivities.multiOwnerSignRawPayload.path,
      signerActivities.multiOwnerSignRawPayload.type,
      'propose',
      "Signs a hash with the organization's wallet key once the quorum approves",
    ],
  ] as const) {
    app.post(
      `/${path}`,
      {
        schema: {
          summary,
          tags: ['signer', 'multi-owner'],
          body: stampedOrMemberApprovalBodySchema,
          response: { 200: signerActivities.multiOwnerAdd.answer },
        },
        preHandler: verifyStampIfStamped(route),
      },
      async (request) => {
        const activity =
          'approval' in request.body
            ? await approveWithMemberSignature(context, request.body.approval, type)
            : bySession === 'approve'
              ? await approveWithSession(context, route.getVerified(request), type)
              : await proposeQuorumActivity(context, route.getVerified(request), {
                  type,
                  walletApproves: true,
                })
        return { activity: toActivityResponse(activity, { withResult: true }) }
      },
    )
  }
}
