import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose'

/** A custom-JWT issuer for tests: its JSON Web Key Set served on loopback, and its signing. */
export type TestJwtIssuer = {
  issuer: string
  audience: string
  jwksUrl: string
  /** A token with `iss`, `aud`, `sub` 'user-42', `iat` now and `exp` in 5 minutes; `claims` override. */
  sign(claims?: JWTPayload): Promise<string>
  close(): Promise<void>
}

/**
 * Starts an issuer whose key set is fetched over HTTP on 127.0.0.1, as the signer fetches a real
 * one (JWT_PROVIDERS' `jwksUrl`). `nowMs` is the clock its `iat` and `exp` are read from (the
 * signer's test clock, so moving it ages the tokens). Rejects if the port cannot be opened.
 */
export async function startTestJwtIssuer(
  nowMs: () => number = Date.now,
  names: { issuer?: string; audience?: string } = {},
): Promise<TestJwtIssuer> {
  const keys = await generateKeyPair('ES256')
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' }
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = names.issuer ?? 'https://issuer.single-use.example'
  const audience = names.audience ?? 'quick-links-single-use'
  return {
    issuer,
    audience,
    jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`,
    sign(claims = {}) {
      const nowSeconds = Math.floor(nowMs() / 1000)
      return new SignJWT({
        iss: issuer,
        aud: audience,
        sub: 'user-42',
        iat: nowSeconds,
        exp: nowSeconds + 300,
        ...claims,
      })
        .setProtectedHeader({ alg: 'ES256', kid: 'test-key', typ: 'JWT' })
        .sign(keys.privateKey)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
