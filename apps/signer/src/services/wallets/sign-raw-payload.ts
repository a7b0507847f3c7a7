import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { AppError } from '@quicklinks/core/app-error'
import type { SignerCallParameters } from '@quicklinks/protocol/signer-activities'
import type { Hex } from 'viem'
import { signEvm } from '../../crypto/keystore/sign-evm.ts'
import { signSolanaMessage } from '../../crypto/keystore/sign-solana-message.ts'
import type { SignerAccount } from '../accounts/find-account.ts'
import type { WalletSecret } from './use-wallet-secret.ts'

/** `ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2` parameters (Turnkey's names), as the signer-call table parses them. */
export type SignRawPayloadParameters = SignerCallParameters<'signRawPayload'>

/** A checked signing request: which of the wallet's accounts signs which bytes. */
export type SigningPlan = { chain: 'evm'; hash: Hex } | { chain: 'solana'; message: Uint8Array }

/**
 * Checks a sign-raw-payload request against the user's wallet: `signWith` must be its EVM address
 * (any case; the payload is then the 32-byte hash to sign as is, `HASH_FUNCTION_NO_OP`) or its
 * Solana address (the payload is the message bytes, signed with ed25519).
 *
 * Fails by throwing AppError VALIDATION_FAILED (422) naming the field, before anything is signed.
 */
export function planRawPayloadSignature(
  account: SignerAccount,
  parameters: SignRawPayloadParameters,
): SigningPlan {
  const payloadHex = parameters.payload.replace(/^0x/, '').toLowerCase()
  if (parameters.signWith.toLowerCase() === account.evmAddress.toLowerCase()) {
    if (parameters.hashFunction !== 'HASH_FUNCTION_NO_OP') {
      throw invalid(
        'parameters.hashFunction',
        'must be HASH_FUNCTION_NO_OP for an EVM address (hash locally)',
      )
    }
    if (payloadHex.length !== 64)
      throw invalid('parameters.payload', 'must be a 32-byte hash for an EVM address')
    return { chain: 'evm', hash: `0x${payloadHex}` }
  }
  if (parameters.signWith === account.solanaAddress) {
    return { chain: 'solana', message: hexToBytes(payloadHex) }
  }
  throw invalid('parameters.signWith', "must be your wallet's EVM or Solana address")
}

/**
 * Signs a checked plan with the wallet's seed: a raw secp256k1 signature over the hash, returned as
 * 0x r‖s‖v (65 bytes, v 27/28), or an ed25519 signature over the message, 0x-prefixed 64 bytes.
 *
 * Fails by rejecting with a KeystoreError when the seed or request is unusable (a server fault).
 */
export async function signWithPlan(secret: WalletSecret, plan: SigningPlan): Promise<Hex> {
  if (plan.chain === 'evm') return signEvm(secret.seed, { kind: 'hash', hash: plan.hash })
  return `0x${bytesToHex(signSolanaMessage(secret.seed, plan.message))}`
}

function invalid(field: string, problem: string): AppError {
  return new AppError('VALIDATION_FAILED', { userMessage: `${field}: ${problem}`, field })
}
