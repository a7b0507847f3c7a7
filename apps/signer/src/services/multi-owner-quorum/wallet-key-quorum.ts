import { AppError } from '@quicklinks/core/app-error'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { readMultiOwnerState } from './multi-owner-state.ts'

/**
 * Refuses a use of the organization's wallet EVM key outside its multi-owner quorum
 * (docs/signer.md#multi-owner-wallet-key): once the root quorum threshold is above 1, that key is
 * one of the k owners of the account, so `sign-payload` with it (either route) and an export of
 * the mnemonic or of the key would let the session act for that owner without the quorum. Checked
 * whether or not MULTI_OWNER_ENABLED is on: turning the setting off does not release a quorum.
 *
 * Fails with FORBIDDEN (403, `details.reason` MULTI_OWNER_QUORUM_REQUIRED); resolves for an
 * organization without multi-owner or with threshold 1.
 */
export async function assertWalletKeyOutsideQuorum(
  db: SignerDatabase,
  organizationId: string,
  use: 'sign' | 'export',
): Promise<void> {
  const state = await readMultiOwnerState(db, organizationId)
  if (state === undefined || state.rootQuorumThreshold <= 1) return
  throw new AppError('FORBIDDEN', {
    userMessage:
      use === 'sign'
        ? `This wallet's EVM key signs only what its multi-owner quorum of ${state.rootQuorumThreshold} approves: use multi-owner-sign-raw-payload.`
        : `This wallet's key cannot be exported while its multi-owner quorum is ${state.rootQuorumThreshold}.`,
    details: { reason: 'MULTI_OWNER_QUORUM_REQUIRED' },
  })
}
