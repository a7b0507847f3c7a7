import type { X402FacilitatorRequest } from '@quicklinks/core/api/x402'
import { AppError } from '@quicklinks/core/app-error'
import { PaymentRequirementsV2Schema, parsePaymentPayload } from '@x402/core/schemas'
import type { Network, PaymentPayload, PaymentRequirements } from '@x402/core/types'

/** A facilitator request whose payload and requirement have the protocol's shapes. */
export type ParsedFacilitatorRequest =
  | { payload: PaymentPayload; requirements: PaymentRequirements }
  /** An x402 version this facilitator does not speak (it settles v2 only): answered invalid, not 400. */
  | { unsupportedVersion: number }

/**
 * Checks POST /x402/facilitator/{verify,settle}'s `paymentPayload` and `paymentRequirements` with
 * `@x402/core/schemas` (the protocol's own schemas). Throws AppError BAD_REQUEST (400) naming the
 * first field that is not right, or when the body's x402Version is not the payload's.
 */
export function parseFacilitatorRequestOrThrow(body: X402FacilitatorRequest): ParsedFacilitatorRequest {
  const payload = parsePaymentPayload(body.paymentPayload)
  if (!payload.success) throw badRequest('paymentPayload', payload.error.issues[0])
  if (payload.data.x402Version !== body.x402Version) {
    throw new AppError('BAD_REQUEST', {
      message: 'x402 facilitator request with two versions',
      userMessage: `x402Version ${body.x402Version} is not the payment payload's (${payload.data.x402Version}).`,
    })
  }
  if (payload.data.x402Version !== 2) return { unsupportedVersion: payload.data.x402Version }
  const requirements = PaymentRequirementsV2Schema.safeParse(body.paymentRequirements)
  if (!requirements.success) throw badRequest('paymentRequirements', requirements.error.issues[0])
  const { accepted, extensions, ...rest } = payload.data
  return {
    payload: { ...rest, accepted: toRequirements(accepted), ...(extensions ? { extensions } : {}) },
    requirements: toRequirements(requirements.data),
  }
}

/**
 * The schema's output as `@x402/core/types` types it: its network refinement (a colon, CAIP-2)
 * is not in its static type, and an absent `extra` is an empty one.
 */
function toRequirements(parsed: ReturnType<typeof PaymentRequirementsV2Schema.parse>): PaymentRequirements {
  return { ...parsed, network: parsed.network as Network, extra: parsed.extra ?? {} }
}

function badRequest(field: string, issue: { path: PropertyKey[]; message: string } | undefined): AppError {
  const where = [field, ...(issue?.path ?? []).map(String)].join('.')
  return new AppError('BAD_REQUEST', {
    message: `x402 facilitator request with a bad ${field}`,
    userMessage: `${where} is not valid for x402: ${issue?.message ?? 'unreadable'}.`,
  })
}
