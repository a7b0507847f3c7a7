import type { DevnetChainDeployment } from '@quicklinks/devnet/devnet-deployment'
import {
  type Chain,
  type Hash,
  type Hex,
  keccak256,
  type LocalAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem'

/** What the relayer uses on one chain. */
export type RelayerChain = {
  deployment: DevnetChainDeployment
  client: PublicClient
  /** Signs with the relayer account, whose nonce manager every lane of this process shares. */
  wallet: WalletClient<Transport, Chain, LocalAccount>
  payRouter: `0x${string}`
  /** Blocks that must sit on a block before the relayer acts on what it holds (getConfirmations). */
  confirmations: number
}

export type SignedRelayerTransaction = { hash: Hash; serialized: Hex }

/**
 * Prepares and signs a transaction from the relayer account without sending it, taking its nonce
 * from the account's nonce manager (so concurrent lanes never sign two transactions with one
 * nonce): the caller can write the hash down before the transaction exists anywhere else. The
 * nonce is handed back when preparing or signing fails. Throws what viem throws (a revert in the
 * gas estimate, an RPC error).
 */
export async function signRelayerTransaction(
  chain: RelayerChain,
  request: { to: `0x${string}`; data: Hex; value?: bigint; gas?: bigint },
): Promise<SignedRelayerTransaction> {
  const account = chain.wallet.account
  try {
    const prepared = await chain.wallet.prepareTransactionRequest({
      to: request.to,
      data: request.data,
      value: request.value ?? 0n,
      ...(request.gas === undefined ? {} : { gas: request.gas }),
      ...(account.nonceManager ? { nonceManager: account.nonceManager } : {}),
    })
    const serialized = await chain.wallet.signTransaction(prepared)
    return { hash: keccak256(serialized), serialized }
  } catch (error) {
    resetRelayerNonce(chain)
    throw error
  }
}

/**
 * Sends a signed relayer transaction. When the node refuses it (or the request fails), the nonce
 * manager forgets what it counted, so the next transaction asks the node for the account's pending
 * nonce instead of leaving a gap. Throws the send error.
 */
export async function broadcastRelayerTransaction(
  chain: RelayerChain,
  transaction: SignedRelayerTransaction,
): Promise<void> {
  try {
    await chain.client.sendRawTransaction({ serializedTransaction: transaction.serialized })
  } catch (error) {
    resetRelayerNonce(chain)
    throw error
  }
}

/** Makes the next nonce of the relayer account on this chain come from the node's pending count. */
export function resetRelayerNonce(chain: RelayerChain): void {
  chain.wallet.account.nonceManager?.reset({
    address: chain.wallet.account.address,
    chainId: chain.deployment.chainId,
  })
}
