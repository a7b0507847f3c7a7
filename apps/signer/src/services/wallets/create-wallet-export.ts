import { AppError } from '@quicklinks/core/app-error'
import { createExportBundle, type ExportSecret } from '../../crypto/bundles/create-export-bundle.ts'
import { deriveEvmAccount } from '../../crypto/keystore/derive-evm-account.ts'
import { deriveSolanaAccount } from '../../crypto/keystore/derive-solana-account.ts'
import type { SignerAccount } from '../accounts/find-account.ts'
import type { WalletSecret } from './use-wallet-secret.ts'

/** What to export: the mnemonic, or the private key of the EVM or Solana account. */
export type WalletExportKind = 'mnemonic' | 'evm-private-key' | 'solana-private-key'

/**
 * Checks an export request against the user's wallet and says what it exports.
 *
 * Fails by throwing AppError NOT_FOUND (404) when the wallet id or address is not the user's.
 */
export function planWalletExport(
  account: SignerAccount,
  request: { walletId: string } | { address: string },
): WalletExportKind {
  if ('walletId' in request) {
    if (request.walletId !== account.walletId) {
      throw new AppError('NOT_FOUND', { userMessage: 'This organization has no wallet with that id.' })
    }
    return 'mnemonic'
  }
  if (request.address.toLowerCase() === account.evmAddress.toLowerCase()) return 'evm-private-key'
  if (request.address === account.solanaAddress) return 'solana-private-key'
  throw new AppError('NOT_FOUND', { userMessage: 'This wallet has no account with that address.' })
}

/**
 * Encrypts the chosen secret to the export frame's key and signs the bundle with the service's
 * export signing key (Turnkey export-bundle format, bound to the organization id): the mnemonic as
 * UTF-8, or the raw 32-byte private key. Derived private keys are wiped afterwards.
 *
 * Fails by rejecting with a BundleError for a bad target key or signing key.
 */
export async function createWalletExport(
  secret: WalletSecret,
  kind: WalletExportKind,
  input: { targetPublicKey: string; organizationId: string; signingKey: Uint8Array },
): Promise<string> {
  let exported: ExportSecret
  if (kind === 'mnemonic') exported = { kind: 'mnemonic', mnemonic: secret.mnemonic }
  else if (kind === 'evm-private-key')
    exported = { kind: 'privateKey', privateKey: deriveEvmAccount(secret.seed).privateKey }
  else exported = { kind: 'privateKey', privateKey: deriveSolanaAccount(secret.seed).privateKey }
  try {
    return await createExportBundle({ secret: exported, ...input })
  } finally {
    if (exported.kind === 'privateKey') exported.privateKey.fill(0)
  }
}
