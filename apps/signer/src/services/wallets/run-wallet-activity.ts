import type { SignerActivity } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { getAccountOrThrow } from '../accounts/get-account-or-throw.ts'
import { runActivity } from '../activities/run-activity.ts'
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
 * Fails like `planRawPayloadSignature` (422, before an activity is recorded) or `runActivity`.
 */
export async function runSignRawPayloadActivity(
  context: SignerContext,
  verified: VerifiedStampedRequest<SignRawPayloadParameters>,
  type: string,
): Promise<SignerActivity> {
  const account = await getAccountOrThrow(context.db, verified.userId)
  const plan = planRawPayloadSignature(account, verified.parameters)
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
 * Fails with NOT_FOUND (404) for another wallet, or like `runActivity`.
 */
export async function runWalletExportActivity(
  context: SignerContext,
  verified: VerifiedStampedRequest<{ targetPublicKey: string }>,
  type: string,
  exportRequest: { walletId: string } | { address: string },
): Promise<SignerActivity> {
  const account = await getAccountOrThrow(context.db, verified.userId)
  const kind = planWalletExport(account, exportRequest)
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
