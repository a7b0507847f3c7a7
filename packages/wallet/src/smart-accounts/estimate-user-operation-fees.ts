import type { Chain, Client, Transport } from 'viem'
import { estimateMaxPriorityFeePerGas, getBlock } from 'viem/actions'

/**
 * Fees for a user operation: the node's suggested tip as it is, and a fee cap of twice the latest
 * base fee plus that tip (room for the base fee to rise for a few blocks while the bundler
 * includes it).
 *
 * Why not viem's default: on a devnet whose latest block holds only the bundler's last bundle,
 * the suggested tip is that operation's own tip, and viem's default estimate doubled it on every
 * operation, so fees (and a sponsor's daily cap) ran away after a handful of sends.
 */
export async function estimateUserOperationFees(
  client: Client<Transport, Chain | undefined>,
): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
  const [block, maxPriorityFeePerGas] = await Promise.all([
    getBlock(client),
    estimateMaxPriorityFeePerGas(client),
  ])
  return { maxFeePerGas: 2n * (block.baseFeePerGas ?? 0n) + maxPriorityFeePerGas, maxPriorityFeePerGas }
}
