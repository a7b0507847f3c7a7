import { isMultiFactorType, unsupportedMultiFactorTypeMessage } from './multi-factor-types.ts'
import type { SignerState } from './signer-state.ts'
import type { SignerStoreContext } from './signer-store-context.ts'
import { toClientStepUp } from './to-client-step-up.ts'
import { createWalletError } from './wallet-error.ts'

/** The store's second-factor management actions (see their JSDoc on SignerState). */
export type MfaActions = Pick<SignerState, 'addMfa' | 'verifyMfa' | 'getMfaFactors' | 'removeMfa'>

/**
 * The signed-in user's authenticator apps (TOTP, docs/signer.md#multi-factor): enrol (with the
 * step-up), confirm with a first code, list and remove (with the step-up). The sign-in step that
 * asks a factor's code is validateMultiFactors (sign-in-actions.ts).
 */
export function createMfaActions(ctx: SignerStoreContext): MfaActions {
  const { client, stamper, requireUser, withSession } = ctx

  return {
    async addMfa({ multiFactorType, stepUp }) {
      const user = requireUser()
      if (!isMultiFactorType(multiFactorType)) {
        throw createWalletError(unsupportedMultiFactorTypeMessage(multiFactorType))
      }
      return withSession(() =>
        client.requestMultiFactor(stamper, user.orgId, { multiFactorType }, toClientStepUp(stepUp)),
      )
    },

    async verifyMfa(input) {
      const user = requireUser()
      return withSession(
        async () => (await client.verifyMultiFactor(stamper, user.orgId, input)).multiFactors,
      )
    },

    async getMfaFactors() {
      const user = requireUser()
      return withSession(async () => (await client.listMultiFactors(stamper, user.orgId)).multiFactors)
    },

    async removeMfa({ multiFactorIds, stepUp }) {
      const user = requireUser()
      return withSession(
        async () =>
          (await client.deleteMultiFactors(stamper, user.orgId, { multiFactorIds }, toClientStepUp(stepUp)))
            .multiFactors,
      )
    },
  }
}
