import type { Address, Hex, LocalAccount, Transport, TypedDataDefinition } from 'viem'

/**
 * The account types of the persisted store, by their product names. On the devnet (and wherever
 * our factories are deployed) they map to deployable contracts: LightAccount and ModularAccountV2
 * to QuickLinksAccount (single owner), the two multi-owner types to QuickLinksMultiOwnerAccount.
 */
export const smartAccountTypes = [
  'LightAccount',
  'MultiOwnerModularAccount',
  'MultiOwnerLightAccount',
  'ModularAccountV2',
] as const
export type SmartAccountType = (typeof smartAccountTypes)[number]

/** A type's state per chain: starts DISCONNECTED with no account. */
export type SmartAccountStatus = 'DISCONNECTED' | 'CONNECTING' | 'CONNECTED' | 'ERROR'
export type SmartAccountState = { status: SmartAccountStatus; account: Address | null }

/** What one chain needs for smart accounts (GET /api/config `smartAccounts.chains[]`). */
export type SmartAccountChainConfig = {
  chainId: number
  entryPoint: Address
  accountFactory: Address
  multiOwnerAccountFactory: Address
  simple7702Account: Address
}

/** How the SDK reaches one chain: its node, its bundler and (optional) its sponsor service. */
export type SmartAccountTransports = {
  /** JSON-RPC of the chain (reads, receipts). */
  rpc: Transport
  /** ERC-4337 bundler JSON-RPC (eth_sendUserOperation, …). */
  bundler: Transport
  /** ERC-7677 paymaster JSON-RPC (pm_getPaymasterStubData, pm_getPaymasterData); none: no sponsorship. */
  paymaster?: Transport
}

/** One call a user operation makes from the account. */
export type SmartAccountCall = { to: Address; value?: bigint; data?: Hex }

/** Progress of a send, in order; `submitted` carries the user-operation hash. */
export type SmartSendProgress =
  | { step: 'preparing' }
  | { step: 'sponsoring' }
  | { step: 'signing' }
  | { step: 'submitted'; userOpHash: Hex }
  | { step: 'included'; userOpHash: Hex; transactionHash: Hex }

export type SmartSendInput = {
  chainId: number
  /** Default LightAccount. 'EIP7702' sends as the embedded EOA itself (delegated to Simple7702Account). */
  accountType?: SmartAccountType | 'EIP7702'
  calls: SmartAccountCall[]
  /** Ask the sponsor service to pay the gas under this policy; none: the account pays. */
  policyId?: string
  onProgress?: (progress: SmartSendProgress) => void
}

export type SmartSendResult = {
  userOpHash: Hex
  transactionHash: Hex
  /** The EntryPoint's verdict on the calls (UserOperationEvent.success). */
  success: boolean
  /** Wei the operation cost (paid by the paymaster when sponsored). */
  actualGasCost: bigint
  sponsored: boolean
}

/**
 * Why a sponsor service refused (JSON-RPC error `data.reason`): POLICY_SPENT (the policy's daily
 * gas cap for this user is used up; the user can pay the gas themselves), NOT_SPONSORED (the
 * operation is outside the policy: another account, contract or token), UNKNOWN_POLICY.
 * `send` rejects with `SponsorshipRefusedError` (wallet-error.ts: `reason`, `walletCode`
 * 'SPONSORSHIP_REFUSED', a user-safe `userMessage`) when the sponsor refuses.
 */
export type { SponsorRefusalReason } from '../wallet-error.ts'

export type SmartWalletOptions = {
  /** The embedded wallet's key (the signer's viem account: every signature goes through the signer). */
  owner: LocalAccount
  chains: SmartAccountChainConfig[]
  transports: (chainId: number) => SmartAccountTransports
  /**
   * The initial owners of the multi-owner types (their address depends on this list and its
   * order, and stays when `updateOwners` changes them later: `buildUpdateOwnersCall` in
   * to-quick-links-smart-account.ts); default `[owner.address]`. `owner` must be an owner when it
   * signs.
   */
  owners?: readonly Address[]
  /**
   * The multi-owner types' initial threshold k (default 1; the address depends on it). Above 1,
   * `owner` must give the k owners' signatures itself (`toMultiOwnerOwnerAccount`).
   */
  threshold?: number
  /**
   * Told each type's state on each chain as the wallet builds its accounts: CONNECTING, then
   * CONNECTED with the address, or ERROR when the chain could not be read (the next use tries
   * again). The app passes the smart-account store's `setAccountState`.
   */
  onAccountState?: (chainId: number, accountType: SmartAccountType, state: SmartAccountState) => void
}

/** The embedded wallet's smart accounts on every configured chain. */
export type SmartWallet = {
  /** The counterfactual address of a type (the same on every chain). */
  getAddress(accountType?: SmartAccountType): Promise<Address>
  isDeployed(chainId: number, accountType?: SmartAccountType): Promise<boolean>
  /** Sends the calls as one user operation and resolves once it is included (its receipt). */
  send(input: SmartSendInput): Promise<SmartSendResult>
  /** EIP-191 message signed as the account: ERC-1271 once deployed, wrapped in ERC-6492 before. */
  signMessage(input: { chainId: number; message: string; accountType?: SmartAccountType }): Promise<Hex>
  signTypedData(input: {
    chainId: number
    typedData: TypedDataDefinition
    accountType?: SmartAccountType
  }): Promise<Hex>
}
