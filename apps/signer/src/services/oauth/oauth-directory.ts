import { AppError } from '@quicklinks/core/app-error'
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose'
import type { OAuthProvider } from '../../signer-config.ts'

/**
 * The default scopes (docs/signer.md#social-login) of the well-known providers (and the extra authorization parameters some
 * need); any other id is a custom provider, which uses its configured scope.
 */
export const knownOAuthProviders: Readonly<
  Record<string, { scope: string; claims?: string; otherParameters?: Record<string, string> }>
> = {
  google: { scope: 'openid email' },
  apple: { scope: 'openid email' },
  auth0: { scope: 'openid email' },
  // Facebook's OIDC login: the same scopes, plus its fixed extra parameter.
  facebook: { scope: 'openid email', otherParameters: { response_mode: 'query' } },
  // Twitch puts the e-mail in the id token only when asked for by a claims request; force_verify
  // shows its account page every time.
  twitch: {
    scope: 'openid user:read:email',
    claims: JSON.stringify({ id_token: { email: null, email_verified: null } }),
    otherParameters: { force_verify: 'true' },
  },
}

/** What signer-config and prepare-oauth tell the SDK about one provider (the OAuth config, docs/signer.md#prepare-oauth). */
export type PublicOAuthProvider = {
  id: string
  isCustomProvider: boolean
  authEndpoint: string
  clientId: string
  /** The scope to ask for; absent for a custom provider configured without one. */
  scope?: string
  /** A claims request to send (JSON), e.g. Twitch's e-mail claim. */
  claims?: string
  /** Further fixed authorization parameters. */
  otherParameters?: Record<string, string>
}

/** A provider with its discovered endpoints and key set. */
export type DiscoveredOAuthProvider = {
  provider: OAuthProvider
  /** The `issuer` of the discovery document (the `iss` of its id tokens). */
  issuer: string
  authorizationEndpoint: string
  tokenEndpoint: string
  keySet: JWTVerifyGetKey
}

export type OAuthDirectory = {
  /** The configured providers, in order. */
  providers: readonly OAuthProvider[]
  /**
   * A provider with its endpoints (discovered once, then cached). Rejects with AppError NOT_FOUND
   * ('No auth provider found with id {id}') or UPSTREAM_FAILED when its discovery document cannot be read.
   */
  get(id: string): Promise<DiscoveredOAuthProvider>
  /** Every provider whose discovery document could be read, as the SDK sees it; the others are left out. */
  listPublic(onError?: (id: string, error: unknown) => void): Promise<PublicOAuthProvider[]>
}

/** A failed discovery is retried after this long, not on every call. */
const discoveryRetryMs = 30_000

const discoveryDocumentKeys = ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const

/**
 * The social-login providers of OAUTH_PROVIDERS with their endpoints, read from each issuer's
 * `/.well-known/openid-configuration` on first use (5 s time-out) and kept; a failure is kept for
 * 30 s, then tried again. The document's `issuer` must be the configured one (OpenID Connect
 * Discovery 1.0, section 4.3), so a document cannot name another issuer's keys.
 */
export function createOAuthDirectory(
  providers: readonly OAuthProvider[],
  now: () => number,
  fetchImpl: typeof fetch = fetch,
): OAuthDirectory {
  const discovered = new Map<string, Promise<DiscoveredOAuthProvider>>()
  const failedAt = new Map<string, number>()

  async function discover(provider: OAuthProvider): Promise<DiscoveredOAuthProvider> {
    const url = `${provider.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(5000) })
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    const document = (await response.json()) as Record<string, unknown>
    for (const key of discoveryDocumentKeys) {
      if (typeof document[key] !== 'string') throw new Error(`${url} has no ${key}`)
    }
    const issuer = document.issuer as string
    if (issuer.replace(/\/+$/, '') !== provider.issuer.replace(/\/+$/, '')) {
      throw new Error(`${url} names issuer ${issuer}, not ${provider.issuer}`)
    }
    return {
      provider,
      issuer,
      authorizationEndpoint: document.authorization_endpoint as string,
      tokenEndpoint: document.token_endpoint as string,
      keySet: createRemoteJWKSet(new URL(document.jwks_uri as string), { timeoutDuration: 5000 }),
    }
  }

  async function get(id: string): Promise<DiscoveredOAuthProvider> {
    const provider = providers.find((candidate) => candidate.id === id)
    if (provider === undefined) {
      throw new AppError('NOT_FOUND', { userMessage: `No auth provider found with id ${id}` })
    }
    const lastFailure = failedAt.get(id)
    let pending = discovered.get(id)
    if (pending === undefined || (lastFailure !== undefined && now() - lastFailure >= discoveryRetryMs)) {
      failedAt.delete(id)
      pending = discover(provider)
      discovered.set(id, pending)
      pending.catch(() => failedAt.set(id, now()))
    }
    try {
      return await pending
    } catch (error) {
      throw new AppError('UPSTREAM_FAILED', {
        message: `OAuth discovery of ${id} failed: ${(error as Error).message}`,
        userMessage: `Sign-in with ${id} is not available right now. Try again shortly.`,
        cause: error,
      })
    }
  }

  return {
    providers,
    get,
    async listPublic(onError) {
      const listed = await Promise.all(
        providers.map(async (provider): Promise<PublicOAuthProvider | undefined> => {
          try {
            const found = await get(provider.id)
            const known = knownOAuthProviders[provider.id]
            const scope = provider.scope ?? known?.scope
            return {
              id: provider.id,
              isCustomProvider: known === undefined,
              authEndpoint: found.authorizationEndpoint,
              clientId: provider.clientId,
              ...(scope === undefined ? {} : { scope }),
              ...(known?.claims === undefined ? {} : { claims: known.claims }),
              ...(known?.otherParameters === undefined ? {} : { otherParameters: known.otherParameters }),
            }
          } catch (error) {
            onError?.(provider.id, error)
            return undefined
          }
        }),
      )
      return listed.filter((provider) => provider !== undefined)
    },
  }
}
