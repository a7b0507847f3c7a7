import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import type { Hash, PublicClient } from 'viem'

/** PayRouter's `depositState` values: what became of an order's escrow on its source chain. */
export const payRouterEscrowState = { none: 0, open: 1, settled: 2, refunded: 3 } as const

/** Whether the destination PayRouter has filled the order (`filled(orderKey)`). Throws on RPC errors. */
export async function readPayRouterFilled(
  client: PublicClient,
  payRouter: `0x${string}`,
  orderKey: Hash,
): Promise<boolean> {
  return client.readContract({
    address: payRouter,
    abi: payRouterAbi,
    functionName: 'filled',
    args: [orderKey],
  })
}

/** The source PayRouter's escrow state of an order (see payRouterEscrowState). Throws on RPC errors. */
export async function readPayRouterDepositState(
  client: PublicClient,
  payRouter: `0x${string}`,
  orderKey: Hash,
): Promise<number> {
  return client.readContract({
    address: payRouter,
    abi: payRouterAbi,
    functionName: 'depositState',
    args: [orderKey],
  })
}

/** Seconds after an order's fill deadline during which only the relayer may settle. Throws on RPC errors. */
export async function readPayRouterSettlementWindow(
  client: PublicClient,
  payRouter: `0x${string}`,
): Promise<bigint> {
  return client.readContract({ address: payRouter, abi: payRouterAbi, functionName: 'SETTLEMENT_WINDOW' })
}
