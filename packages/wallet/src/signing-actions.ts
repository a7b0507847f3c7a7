import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { address, type Rpc, type SendTransactionApi } from '@solana/kit'
import type { Hex } from 'viem'
import { createSignerAccount } from './create-signer-account.ts'
import { pollActivity } from './poll-activity.ts'
import type { SignerState } from './signer-state.ts'
import type { SignerStoreContext } from './signer-store-context.ts'
import { createSolanaSigner, type SolanaSendingSigner, type SolanaSigner } from './solana/solana-signer.ts'
import { createWalletError } from './wallet-error.ts'

/** The store's signing actions (see their JSDoc on SignerState). */
export type SigningActions = Pick<SignerState, 'toViemAccount' | 'signSolanaMessage' | 'toSolanaSigner'>

/**
 * Signing with the signed-in user's keys: every signature is one `sign-payload` activity (polled
 * while pending). The EVM account is a viem LocalAccount that signs hashes; the Solana account
 * signs bytes, also as a `@solana/kit` signer (docs/signer.md#solana-signing).
 */
export function createSigningActions(ctx: SignerStoreContext): SigningActions {
  const { client, stamper, requireUser } = ctx
  let solanaSigner: SolanaSigner | undefined

  const signRaw = async (
    signWith: string,
    payload: Hex,
    hashFunction: 'HASH_FUNCTION_NO_OP' | 'HASH_FUNCTION_NOT_APPLICABLE',
  ): Promise<Hex> => {
    const user = requireUser()
    return ctx.withSession(async () => {
      const answer = await client.signPayload(stamper, user.orgId, {
        signWith,
        payload,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction,
      })
      if (answer.signature) return answer.signature
      const done = await pollActivity({
        activity: answer.activity,
        getActivity: async (activityId) =>
          (await client.getActivity(stamper, user.orgId, activityId)).activity as typeof answer.activity,
      })
      const signature = done.result?.signature
      if (!signature) throw createWalletError(`Activity ${done.id} completed without a signature`)
      return signature
    })
  }

  function toSolanaSigner(): SolanaSigner
  function toSolanaSigner(options: { rpc: Rpc<SendTransactionApi> }): SolanaSendingSigner
  function toSolanaSigner(options?: { rpc: Rpc<SendTransactionApi> }): SolanaSigner | SolanaSendingSigner {
    const user = requireUser('Must be authenticated!')
    const solanaAddress = user.solanaAddress
    if (!solanaAddress) throw createWalletError('No Solana address available for the user')
    const signBytes = async (bytes: Uint8Array): Promise<Uint8Array> => {
      // Checked again at each signing: the session may have ended, or another account begun.
      const current = requireUser('Must be authenticated!')
      if (current.solanaAddress && current.solanaAddress !== solanaAddress) {
        throw createWalletError('Must be authenticated!', { code: 'UNAUTHORIZED' })
      }
      return ctx.get().signSolanaMessage(bytes)
    }
    if (options !== undefined) {
      return createSolanaSigner({ address: address(solanaAddress), signBytes, rpc: options.rpc })
    }
    if (solanaSigner?.address !== solanaAddress) {
      solanaSigner = createSolanaSigner({ address: address(solanaAddress), signBytes })
    }
    return solanaSigner
  }

  return {
    toViemAccount() {
      const user = requireUser()
      return createSignerAccount({
        address: user.address,
        signHash: (hash) => signRaw(user.address, hash, 'HASH_FUNCTION_NO_OP'),
      })
    },

    async signSolanaMessage(message) {
      const user = requireUser('Must be authenticated!')
      if (!user.solanaAddress) throw createWalletError('No Solana address available for the user')
      const signature = await signRaw(
        user.solanaAddress,
        `0x${bytesToHex(message)}`,
        'HASH_FUNCTION_NOT_APPLICABLE',
      )
      // Solana signatures are truncated to 64 bytes.
      return hexToBytes(signature.slice(2)).slice(0, 64)
    },

    toSolanaSigner,
  }
}
