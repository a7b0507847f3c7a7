import { AppError } from '@quicklinks/core/app-error'
import { assertWebAuthnSupported, createPasskey, stampWithPasskey } from './passkey-webauthn.ts'
import type { SignerClient } from './signer-client.ts'
import type { SignerState } from './signer-state.ts'
import type { SignerStoreContext } from './signer-store-context.ts'
import { toClientStepUp } from './to-client-step-up.ts'
import { createWalletError } from './wallet-error.ts'

/** The store's passkey actions (see their JSDoc on SignerState). */
export type PasskeyActions = Pick<SignerState, 'authenticateWithPasskey' | 'addPasskey' | 'removePasskey'>

/**
 * Passkeys (docs/signer.md#passkeys): the passkey sign-in, which also creates an account with a
 * new passkey, and adding or removing a passkey of the signed-in user with the step-up.
 */
export function createPasskeyActions(ctx: SignerStoreContext): PasskeyActions {
  const { client, stamper, expirationSeconds, set, requireUser, withSession } = ctx

  return {
    async authenticateWithPasskey({ createNew = false, email, authenticatorName } = {}) {
      ctx.setPendingSignIn(null)
      set({ status: 'AUTHENTICATING_PASSKEY', error: null, otpId: null, isNewUser: undefined })
      try {
        assertWebAuthnSupported()
        const targetPublicKey = await stamper.getPublicKey()
        const signUp = async () => {
          const { challenge } = await client.passkeyChallenge()
          const created = await createPasskey({ challenge, userName: email || 'anonymous' })
          const answer = await client.signupWithPasskey({
            passkey: { challenge, attestation: created.attestation },
            ...(email ? { email } : {}),
            authenticatorName: authenticatorName ?? `passkey-${Date.now()}`,
            targetPublicKey,
            expirationSeconds,
          })
          if (typeof answer.credentialBundle !== 'string') {
            throw createWalletError('Failed to sign up with passkey. Server did not return required fields.')
          }
          set({ isNewUser: true })
          await ctx.finishLogin({ bundle: answer.credentialBundle, orgId: answer.orgId })
        }
        if (createNew) {
          await signUp()
          return
        }
        let answer: Awaited<ReturnType<SignerClient['authPasskey']>>
        try {
          answer = await client.authPasskey({ targetPublicKey, expirationSeconds }, (body) =>
            stampWithPasskey(body),
          )
        } catch (error) {
          if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error
          // With an e-mail given, no user found for the passkey creates an account (docs/signer.md#passkeys).
          if (!email) throw createWalletError('No user found', { cause: error })
          await signUp()
          return
        }
        set({ isNewUser: answer.isNewUser })
        await ctx.finishLogin({ bundle: answer.credentialBundle, orgId: answer.orgId })
      } catch (error) {
        ctx.fail(error)
      }
    },

    async addPasskey({ name, stepUp }) {
      const user = requireUser()
      assertWebAuthnSupported()
      const { challenge } = await client.passkeyChallenge()
      const created = await createPasskey({ challenge, userName: user.email || 'anonymous' })
      return withSession(() =>
        client.addPasskey(
          stamper,
          user.orgId,
          {
            challenge,
            attestation: created.attestation,
            authenticatorName: name ?? `passkey-${Date.now()}`,
          },
          toClientStepUp(stepUp),
        ),
      )
    },

    async removePasskey(authenticatorId, stepUp) {
      const user = requireUser()
      await withSession(() =>
        client.removePasskey(stamper, user.orgId, authenticatorId, toClientStepUp(stepUp)),
      )
    },
  }
}
