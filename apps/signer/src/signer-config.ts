import type { HostConfig } from '@quicklinks/runtime/env'
import type { SignerEnvConfig } from './config/signer-env.ts'

export type { JwtProvider, OAuthProvider } from './config/identity-provider-settings.ts'

/**
 * What the signer reads from its host's configuration: the host's public origin, data dir and SMS
 * provider, and the signer's own section of the environment (config/signer-env.ts). The app
 * server's config and the standalone signer's both have all of it, so each passes its own. The
 * host's DEV_MODE and PRODUCTION flags (optional here) turn dev-only conveniences such as the
 * movable authenticator-code clock on and off.
 */
export type SignerConfig = Pick<HostConfig, 'publicOrigin' | 'dataDir'> &
  Partial<Pick<HostConfig, 'devMode' | 'production'>> &
  Omit<SignerEnvConfig, 'framesPort' | 'signerPort'> & {
    /** SMS sign-in is offered unless the provider is 'none'. */
    sms: { provider: string }
    /**
     * Where providers send the browser back (`redirect_uri`); default
     * `${publicOrigin}/signer/v1/oauth-callback`, the signer mounted in the app server.
     */
    oauthCallbackUrl?: string
  }

/** How many codes (and magic links) may go out in any 24 hours (SIGNER_CODES_PER_CONTACT_PER_DAY, SIGNER_SMS_PER_PREFIX_PER_DAY). */
export type CodeSendCaps = SignerEnvConfig['signerCodeSendCaps']

export const defaultCodeSendCaps: CodeSendCaps = { perContactPerDay: 10, perPhonePrefixPerDay: 300 }
