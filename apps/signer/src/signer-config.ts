/**
 * What the signer reads from the host's configuration; the app server's `ServerConfig` has all of
 * it, so the server passes its own config unchanged.
 */
export type SignerConfig = {
  /** Origin of the web app (no trailing slash): magic links point at `${publicOrigin}/login`. */
  publicOrigin: string
  /** Origin of the auth and export frames (no trailing slash). */
  framesOrigin: string
  /** Where the generated master-key file lives when `signerMasterKey` is unset. */
  dataDir: string
  /** Key-encryption key (32 bytes as hex or base64), or undefined to use the 0600 file. */
  signerMasterKey: string | undefined
  /** Default and maximum-by-default lifetime of a session key, in seconds. */
  signerSessionSeconds: number
  /** SMS sign-in is offered unless the provider is 'none'. */
  sms: { provider: string }
  /** Daily caps on codes sent; {@link defaultCodeSendCaps} when absent. */
  signerCodeSendCaps?: CodeSendCaps
  /** The issuers whose JWTs sign users in at `auth-jwt` (JWT_PROVIDERS); none when absent. */
  jwtProviders?: readonly JwtProvider[]
  /** The OpenID Connect providers of social login (OAUTH_PROVIDERS); none when absent. */
  oauthProviders?: readonly OAuthProvider[]
  /**
   * Where providers send the browser back (`redirect_uri`); default
   * `${publicOrigin}/signer/v1/oauth-callback`, the signer mounted in the app server.
   */
  oauthCallbackUrl?: string
  /** MULTI_OWNER_ENABLED: the experimental multi-owner paths (docs/signer.md#multi-owner); off when absent. */
  multiOwnerEnabled?: boolean
  /**
   * SIGNER_QUERY_TIMESTAMP_REQUIRED: Turnkey's query paths refuse a body without `timestampMs`
   * (docs/signer.md#query-stamps); off when absent, as stock `@turnkey/http` clients send none.
   */
  signerQueryTimestampRequired?: boolean
  /** DEV_MODE: dev-only conveniences such as the movable authenticator-code clock; off when absent. */
  devMode?: boolean
  /** PRODUCTION: turns every dev-only convenience off, whatever `devMode` says. */
  production?: boolean
}

/** One social-login provider (docs/signer.md#social-login). */
export type OAuthProvider = {
  /** What a client sends as `authProviderId`; google, apple, facebook, twitch, auth0 have default scopes. */
  id: string
  /** The issuer URL; endpoints come from its discovery document. */
  issuer: string
  /** This app's client id (the `aud` of its id tokens). */
  clientId: string
  /** Sent to the token endpoint when set (client_secret_post). */
  clientSecret?: string
  /** Scopes to ask for instead of the id's default. */
  scope?: string
}

/** One custom-JWT issuer (docs/signer.md#auth-jwt). */
export type JwtProvider = {
  /** What a client sends as `authProvider`. */
  id: string
  /** The `iss` its tokens carry. */
  issuer: string
  /** The URL of its JSON Web Key Set. */
  jwksUrl: string
  /** The `aud` its tokens must carry. */
  audience: string
  /**
   * What makes a token single use (docs/signer.md#auth-jwt): `nonce` (default) = hex SHA-256 of
   * `targetPublicKey`; `jti` = a `jti` and an `iat` at most `maxAgeSeconds` (default 300) old.
   */
  requires?: 'nonce' | 'jti'
  maxAgeSeconds?: number
}

/** How many codes (and magic links) may go out in any 24 hours. */
export type CodeSendCaps = {
  /** To one e-mail address or phone number, sign-in and verification codes together. */
  perContactPerDay: number
  /** To all the phone numbers of one range (country code and three digits, see getPhonePrefix). */
  perPhonePrefixPerDay: number
}

export const defaultCodeSendCaps: CodeSendCaps = { perContactPerDay: 10, perPhonePrefixPerDay: 300 }
