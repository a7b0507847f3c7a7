import type { ExportTarget } from '@quicklinks/protocol/frame-only-activities'
import { openExportFrame } from './open-export-frame.ts'
import { pollActivity } from './poll-activity.ts'
import type { ExportResult } from './signer-client.ts'
import type { SignerState } from './signer-state.ts'
import type { SignerStoreContext } from './signer-store-context.ts'
import { createWalletError } from './wallet-error.ts'

/** The store's wallet export action (see its JSDoc on SignerState). */
export type ExportActions = Pick<SignerState, 'exportWallet'>

/**
 * The wallet export (docs/signer.md#wallet-export): the seed phrase or private key is shown inside
 * the export frame only; this page relays the frames' stamped request and the encrypted bundle.
 */
export function createExportActions(ctx: SignerStoreContext): ExportActions {
  const { client, stamper } = ctx

  return {
    async exportWallet({ container, kind, theme }) {
      const user = ctx.requireUser()
      const exportKind = kind ?? (stamper.kind === 'frame' ? 'SEED_PHRASE' : 'PRIVATE_KEY')
      if (exportKind !== 'SEED_PHRASE' && exportKind !== 'PRIVATE_KEY') {
        throw createWalletError(`Unknown export mode: ${String(exportKind)}`)
      }
      return ctx.withSession(async () => {
        // A live session and its wallet, read through the auth frame: this also loads that frame,
        // which must be there to stamp the export frame's request.
        const whoami = await client.whoami(stamper, user.orgId)
        const { walletId } = whoami
        if (!walletId) throw createWalletError(`Could not find wallet associated with ${user.address}`)
        const target: ExportTarget =
          exportKind === 'SEED_PHRASE'
            ? { kind: 'SEED_PHRASE', walletId }
            : { kind: 'PRIVATE_KEY', address: user.address }
        const config = await client.getSignerConfig()
        const frame = await openExportFrame({
          container,
          frameUrl: config.exportFrameUrl,
          ...(theme === undefined ? {} : { theme }),
        })
        try {
          const call = await frame.request({
            type: 'STAMP_EXPORT_REQUEST',
            target,
            organizationId: user.orgId,
            timestampMs: client.serverNow(),
          })
          const answer = await client.postStampedCall<ExportResult>({
            path: call.path,
            body: call.body,
            stamp: call.stamp,
          })
          const done = await pollActivity({
            activity: answer.activity,
            getActivity: async (activityId) =>
              (await client.getActivity(stamper, user.orgId, activityId)).activity as typeof answer.activity,
          })
          const bundle = done.result?.exportBundle
          if (typeof bundle !== 'string')
            throw createWalletError(`Activity ${done.id} completed without an export bundle`)
          const injected = await frame
            .request({
              type: 'INJECT_WALLET_EXPORT_BUNDLE',
              bundle,
              organizationId: user.orgId,
              kind: exportKind,
            })
            .catch((error: unknown) => {
              throw createWalletError('Failed to inject wallet export bundle', { cause: error })
            })
          if (!injected.ok) throw createWalletError('Failed to inject wallet export bundle')
          return true
        } finally {
          frame.close()
        }
      })
    },
  }
}
