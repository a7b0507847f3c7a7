import type { SignerAccount } from '../accounts/find-account.ts'
import type { OtpRequester } from './create-otp.ts'
import { hasSignInMarker } from './sign-in-marker.ts'

/** Where a code request came from, as the route sees it. */
export type CodeRequestOrigin = {
  /** The stranger's requester key: `ip:{IPv4 address or IPv6 /64}` (or `oauth:{identity}`). */
  clientKey: string
  /** The recent-sign-in marker cookie, if the browser sent one (sign-in-marker.ts). */
  markerCookie?: string
}

/**
 * Who asks for a code to a contact (docs/decisions/0022): the owner's browser when the request
 * carries a valid recent-sign-in marker of the account that holds the contact (a reserved send,
 * counted per user), else a stranger counted per client. A contact without an account has no
 * owner to reserve for. Pure.
 */
export function resolveCodeRequester(
  signInMarkerSecret: Uint8Array,
  input: { origin: CodeRequestOrigin; account: Pick<SignerAccount, 'userId'> | undefined; nowMs: number },
): OtpRequester {
  const { origin, account } = input
  if (
    account !== undefined &&
    hasSignInMarker(signInMarkerSecret, {
      cookie: origin.markerCookie,
      userId: account.userId,
      nowMs: input.nowMs,
    })
  ) {
    return { key: `user:${account.userId}`, isReserved: true }
  }
  return { key: origin.clientKey, isReserved: false }
}
