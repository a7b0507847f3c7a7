import type { SignerCallStepUp } from '@quicklinks/protocol/signer-activities'
import type { FastifyRequest } from 'fastify'
import type { z } from 'zod'
import {
  type StampedRequest,
  type VerifiedStampedRequest,
  verifyStampedRequest,
} from '../services/stamps/verify-stamped-request.ts'
import { requireStepUp, toStepUpStamp } from '../services/step-up/require-step-up.ts'
import type { SignerContext } from '../signer-context.ts'

/**
 * What a stamped route expects of the inner body: a row of the signer-call table (its activity
 * type, its parameters' schema, its step-up).
 */
export type StampedActivity<Schema extends z.core.$ZodType> = {
  type: string
  parameters: Schema
  stepUp: SignerCallStepUp
}

/**
 * `stepUpInService` when the route's service checks the step-up itself (a contact change proves
 * the current contact with its own parameters).
 */
export type StampedRouteOptions = { stepUpInService?: boolean }

/** A stamped call that checked out, with the activity it was checked against. */
export type StampedCall = {
  activity: StampedActivity<z.core.$ZodType>
  verified: VerifiedStampedRequest<unknown>
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The verified stamped call of a stamped route, set by its `verifyStamp` preHandler before the
     * handler runs; null on every other route. Handlers read it typed through `getVerified`.
     */
    stampedCall: StampedCall | null
  }
}

export type StampedRoute<Schema extends z.core.$ZodType> = {
  /**
   * The route's preHandler: verifies the stamp of the already validated `{stampedRequest}` body
   * (`verifyStampedRequest`) and decorates `request.stampedCall`. A refusal is thrown before the
   * handler runs, so it reaches the error handler with the verifier's status and body.
   */
  verifyStamp(request: {
    body: { stampedRequest: StampedRequest }
    stampedCall: StampedCall | null
  }): Promise<void>
  /** The verified call in the handler, its parameters typed by the route's schema. */
  getVerified(request: FastifyRequest): VerifiedStampedRequest<z.output<Schema>>
}

/**
 * One stamped route's stamp check (`activity`: its row of the signer-call table), as a preHandler that hands the verified call on to the
 * handler: who sent it (organization, user, session key), the body hash and the parsed
 * parameters. Handlers never call the verifier themselves. A `reauth` call's step-up
 * (require-step-up.ts) is checked here too, before the handler runs.
 *
 * `verifyStamp` fails like `verifyStampedRequest` (StampError 401/400/409, VALIDATION_FAILED 422,
 * FORBIDDEN 403) or `requireStepUp` (FORBIDDEN 403 with a step-up reason); `getVerified` throws a plain Error (a 500) only when the route forgot the hook.
 */
export function createStampedRoute<Schema extends z.core.$ZodType>(
  context: SignerContext,
  activity: StampedActivity<Schema>,
  options: StampedRouteOptions = {},
): StampedRoute<Schema> {
  const expected = { type: activity.type, parametersSchema: activity.parameters, stepUp: activity.stepUp }
  return {
    async verifyStamp(request) {
      const verified = await verifyStampedRequest(context, request.body.stampedRequest, expected)
      if (activity.stepUp === 'reauth' && options.stepUpInService !== true) {
        // Before the handler: a change of a way in never runs on a session's stamp alone.
        await requireStepUp(context, {
          userId: verified.userId,
          stamp: toStepUpStamp(verified),
          proof: verified.stepUp,
        })
      }
      request.stampedCall = { activity, verified }
    },
    getVerified(request) {
      const call = request.stampedCall
      if (call === null || call.activity !== activity) {
        throw new Error(`${activity.type}: the route's handler ran without its verifyStamp preHandler`)
      }
      // Sound: the one writer of a call tagged with this activity is verifyStamp above, which
      // parsed the parameters with this activity's schema.
      return call.verified as VerifiedStampedRequest<z.output<Schema>>
    },
  }
}
