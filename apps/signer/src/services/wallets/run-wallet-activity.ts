import type { SignerActivity } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { getAccountOrThrow } from '../accounts/get-account-or-throw.ts'
import { runActivity } from '../activities/run-activity.ts'
import { assertWalletKeyOutsideQuorum } from '../multi-owner-quorum/wallet-key-quorum.ts'
import type { VerifiedStampedRequest } from '../stamps/verify-stamped-request.ts'
import { createWalletExport, planWalletExport } from './create-wallet-export.ts'
import { planRawPayloadSignature, type SignRawPayloadParameters, signWithPlan } from './sign-raw-payload.ts'
import { useWalletSecret } from './use-wallet-secret.ts'

function activityInput(
  context: SignerContext,
  verified: VerifiedStampedRequest<Record<string, unknown>>,
  type: string,
) {
  return {
    organizationId: verified.organizationId,
    userId: verified.userId,
    type,
    request: verified.parameters,
    bodyHash: verified.bodyHash,
    now: context.now,
  }
}

/**
 * Runs a verified sign-raw-payload call as an activity whose result is `{signature}` (0x hex,
 * sign-raw-payload.ts). Shared by `/signer/v1/sign-payload` and Turnkey's `submit/sign_raw_payload`.
 *
 * Fails like `planRawPayloadSignature` (422, before an activity is recorded), with FORBIDDEN (403,
 * MULTI_OWNER_QUORUM_REQUIRED) when the EVM key belongs to a multi-owner quorum above 1 (its
 * signatures go through multi-owner-sign-raw-payload), or like `runActivity`.
 */
export async function runSignRawPayloadActivity(
  context: SignerContext,
  verified: VerifiedStampedRequest<SignRawPayloadParameters>,
  type: string,
): Promise<SignerActivity> {
  const account = await getAccountOrThrow(context.db, verified.userId)
  const plan = planRawPayloadSignature(account, verified.parameters)
  // Every request shape that reaches the EVM key (any case of the address, either route) plans as
  // 'evm'; the Solana key is no member and keeps signing alone.
  if (plan.chain === 'evm') await assertWalletKeyOutsideQuorum(context.db, verified.organizationId, 'sign')
  return runActivity(context.db, activityInput(context, verified, type), async () => ({
    signature: await useWalletSecret(
      context.db,
      { masterKey: context.keyring.masterKey, userId: account.userId },
      (secret) => signWithPlan(secret, plan),
    ),
  }))
}

/**
 * Runs a verified export call as an activity whose result is `{exportBundle}`: checks the wallet
 * id or address against the user's wallet (404 otherwise), then seals the mnemonic or the
 * account's key to `targetPublicKey`. Shared by the `/signer/v1` export routes and Turnkey's
 * `submit/export_wallet` and `submit/export_wallet_account`.
 *
 * Fails with NOT_FOUND (404) for another wallet, FORBIDDEN (403, MULTI_OWNER_QUORUM_REQUIRED) for the
 * mnemonic or the EVM key of a multi-owner quorum above 1, or like `runActivity`.
 */
export async function runWalletExportActivity(
  context: SignerContext,
  verified: VerifiedStampedRequest<{ targetPublicKey: string }>,
  type: string,
  exportRequest: { walletId: string } | { address: string },
): Promise<SignerActivity> {
  const account = await getAccountOrThrow(context.db, verified.userId)
  const kind = planWalletExport(account, exportRequest)
  if (kind !== 'solana-private-key') {
    await assertWalletKeyOutsideQuorum(context.db, verified.organizationId, 'export')
  }
  return runActivity(context.db, activityInput(context, verified, type), async () => ({
    exportBundle: await useWalletSecret(
      context.db,
      { masterKey: context.keyring.masterKey, userId: account.userId },
      (secret) =>
        createWalletExport(secret, kind, {
          targetPublicKey: verified.parameters.targetPublicKey,
          organizationId: verified.organizationId,
          signingKey: context.keyring.exportSigningKey,
        }),
    ),
  }))
}
