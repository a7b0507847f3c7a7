import type { SignerDatabase } from './db/signer-database.ts'
import type { Delivery } from './delivery.ts'
import type { TotpClock } from './dev/dev-totp-clock.ts'
import type { SignerKeyring } from './services/keyring/load-signer-keyring.ts'
import type { OAuthDirectory } from './services/oauth/oauth-directory.ts'
import type { SignerConfig } from './signer-config.ts'

/** Everything the signer's services need, built once when the plugin registers. */
export type SignerContext = {
  db: SignerDatabase
  keyring: SignerKeyring
  delivery: Delivery
  config: SignerConfig
  /** The service clock, epoch ms (tests may move it). */
  now: () => number
  /** The clock authenticator codes are checked at: `now`, or in dev mode `now` plus what a test moved an account's. */
  totpClock: TotpClock
  /** Social login's providers, for a step-up proven by a linked provider's id token (require-step-up.ts). */
  oauthDirectory?: OAuthDirectory
}
