import type {} from '@fastify/cookie'
import { getClientIpKey } from '@quicklinks/runtime/plugins/rate-limit-plugin'
import { eq } from 'drizzle-orm'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { signerUsers } from '../db/signer-schema.ts'
import type { CodeRequestOrigin } from '../services/otp/resolve-code-requester.ts'
import {
  addSignInMarker,
  signInMarkerCookieName,
  signInMarkerLifetimeMs,
} from '../services/otp/sign-in-marker.ts'
import type { SignerContext } from '../signer-context.ts'

// The recent-sign-in marker travels as a cookie of the signer's own path: HttpOnly (no page script
// reads or copies it), SameSite=Strict, sent back by the SDK's credentialed fetch. The host
// registers @fastify/cookie (the app server and the standalone signer both do).
const cookiePath = '/signer/v1'

/** Who sends a code request: the client key the rate limits use, and the marker cookie if any. */
export function readCodeRequestOrigin(request: FastifyRequest): CodeRequestOrigin {
  const markerCookie = request.cookies?.[signInMarkerCookieName]
  return {
    clientKey: `ip:${getClientIpKey(request)}`,
    ...(markerCookie === undefined ? {} : { markerCookie }),
  }
}

/**
 * After a sign-in that answered a session (not MFA_REQUIRED): sets the browser's marker cookie
 * for the user of `orgId` (sign-in-marker.ts), keeping its markers of other users. Rejects on a
 * database error.
 */
export async function setSignInMarkerCookie(
  context: SignerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: { orgId: string } | { status: 'MFA_REQUIRED' },
): Promise<void> {
  if (!('orgId' in answer) || 'status' in answer) return
  const [user] = await context.db
    .select({ userId: signerUsers.id })
    .from(signerUsers)
    .where(eq(signerUsers.organizationId, answer.orgId))
  if (user === undefined) return
  const value = addSignInMarker(context.keyring.signInMarkerSecret, {
    cookie: request.cookies?.[signInMarkerCookieName],
    userId: user.userId,
    nowMs: context.now(),
  })
  reply.setCookie(signInMarkerCookieName, value, {
    path: cookiePath,
    httpOnly: true,
    sameSite: 'strict',
    secure: context.config.publicOrigin.startsWith('https:'),
    maxAge: Math.floor(signInMarkerLifetimeMs / 1000),
  })
}
