import { z } from 'zod'

/** The largest inner body accepted (an export or sign request is well under 1 KiB; a Solana message under 3). */
const maxInnerBodyLength = 256 * 1024

/**
 * The body of every stamped route: `{stampedRequest: {url, body, stamp}}`, where `body` is the exact
 * JSON string the session key signed and `stamp` carries the `X-Stamp` header value (a session key's) or the `X-Stamp-WebAuthn` one (a
 * passkey's assertion over the body, docs/signer.md#passkey-stamps).
 */
export const stampedRequestBodySchema = z.object({
  stampedRequest: z.object({
    url: z.string().max(2048),
    body: z.string().min(1).max(maxInnerBodyLength),
    stamp: z.object({
      stampHeaderName: z
        .string()
        .refine((name) => ['x-stamp', 'x-stamp-webauthn'].includes(name.toLowerCase()), {
          error: 'must be X-Stamp (a session key) or X-Stamp-WebAuthn (a passkey)',
        }),
      stampHeaderValue: z.string().min(1).max(8192),
    }),
  }),
})
