import { z } from 'zod/mini'

/** The largest inner body accepted (an export or sign request is well under 1 KiB; a Solana message under 3). */
const maxInnerBodyLength = 256 * 1024

/**
 * The body of every stamped route: `{stampedRequest: {url, body, stamp}}`, where `body` is the exact
 * JSON string the session key signed and `stamp` carries the `X-Stamp` header value (a session key's) or the `X-Stamp-WebAuthn` one (a
 * passkey's assertion over the body, docs/signer.md#passkey-stamps).
 */
export const stampedRequestBodySchema = z.object({
  stampedRequest: z.object({
    url: z.string().check(z.maxLength(2048)),
    body: z.string().check(z.minLength(1), z.maxLength(maxInnerBodyLength)),
    stamp: z.object({
      stampHeaderName: z.string().check(
        z.refine((name: string) => ['x-stamp', 'x-stamp-webauthn'].includes(name.toLowerCase()), {
          error: 'must be X-Stamp (a session key) or X-Stamp-WebAuthn (a passkey)',
        }),
      ),
      stampHeaderValue: z.string().check(z.minLength(1), z.maxLength(8192)),
    }),
  }),
})
