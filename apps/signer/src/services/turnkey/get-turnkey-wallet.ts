import { eq } from 'drizzle-orm'
import { evmDerivationPath } from '../../crypto/keystore/derive-evm-account.ts'
import { solanaDerivationPath } from '../../crypto/keystore/derive-solana-account.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerWallets } from '../../db/signer-schema.ts'
import type { SignerAccount } from '../accounts/find-account.ts'
import { type TurnkeyTimestamp, toTurnkeyTimestamp } from './to-turnkey-activity.ts'

/** The wallet's name in Turnkey's answers: each user has exactly one wallet. */
export const turnkeyWalletName = 'Default Wallet'

/** A wallet in Turnkey's shape (`v1Wallet`). */
export type TurnkeyWallet = {
  walletId: string
  walletName: string
  createdAt: TurnkeyTimestamp
  updatedAt: TurnkeyTimestamp
  exported: boolean
  imported: boolean
}

/** A wallet account in Turnkey's shape (`v1WalletAccount`). */
export type TurnkeyWalletAccount = {
  walletAccountId: string
  organizationId: string
  walletId: string
  curve: 'CURVE_SECP256K1' | 'CURVE_ED25519'
  pathFormat: 'PATH_FORMAT_BIP32'
  path: string
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM' | 'ADDRESS_FORMAT_SOLANA'
  address: string
  createdAt: TurnkeyTimestamp
  updatedAt: TurnkeyTimestamp
  walletDetails?: TurnkeyWallet
}

/**
 * The user's one wallet and its two accounts (EVM at m/44'/60'/0'/0/0, Solana at
 * m/44'/501'/0'/0') in Turnkey's shapes, for `query/list_wallets` and `query/list_wallet_accounts`.
 * Account ids are the wallet id with the chain (`{walletId}:evm`, `{walletId}:solana`): an
 * account is never stored apart from its wallet. `exported` is false: exports are not recorded
 * on the wallet.
 *
 * Rejects on a database error, or when the wallet row vanished (a server fault).
 */
export async function getTurnkeyWallet(
  db: SignerDatabase,
  account: SignerAccount,
): Promise<{ wallet: TurnkeyWallet; accounts: TurnkeyWalletAccount[] }> {
  const [row] = await db
    .select({ createdAt: signerWallets.createdAt })
    .from(signerWallets)
    .where(eq(signerWallets.id, account.walletId))
  if (row === undefined) throw new Error(`Wallet ${account.walletId} vanished`)
  const createdAt = toTurnkeyTimestamp(row.createdAt)
  const wallet: TurnkeyWallet = {
    walletId: account.walletId,
    walletName: turnkeyWalletName,
    createdAt,
    updatedAt: createdAt,
    exported: false,
    imported: false,
  }
  const common = {
    organizationId: account.organizationId,
    walletId: account.walletId,
    pathFormat: 'PATH_FORMAT_BIP32',
    createdAt,
    updatedAt: createdAt,
  } as const
  return {
    wallet,
    accounts: [
      {
        ...common,
        walletAccountId: `${account.walletId}:evm`,
        curve: 'CURVE_SECP256K1',
        path: evmDerivationPath,
        addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
        address: account.evmAddress,
      },
      {
        ...common,
        walletAccountId: `${account.walletId}:solana`,
        curve: 'CURVE_ED25519',
        path: solanaDerivationPath,
        addressFormat: 'ADDRESS_FORMAT_SOLANA',
        address: account.solanaAddress,
      },
    ],
  }
}
