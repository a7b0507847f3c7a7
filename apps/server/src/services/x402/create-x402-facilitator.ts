import { toX402Network } from '@quicklinks/core/api/x402'
import { AppError } from '@quicklinks/core/app-error'
import { x402Facilitator } from '@x402/core/facilitator'
import type { FacilitatorEvmSigner } from '@x402/evm'
import { ExactEvmScheme } from '@x402/evm/exact/facilitator'
import type { PublicClient } from 'viem'
import type { X402Setup } from './read-x402-setup.ts'

/**
 * Our x402 facilitator (docs/decisions/0031): `@x402/core`'s x402Facilitator with `@x402/evm`'s
 * `exact` scheme registered per chain (not `registerExactEvmScheme`, which takes one signer for every
 * chain and registers x402 v1 too), each signing as the relayer. Pure: builds objects, no I/O.
 */
export function createX402Facilitator(setup: X402Setup): x402Facilitator {
  const facilitator = new x402Facilitator()
  for (const chain of setup.chains) {
    const signer = createFacilitatorSigner(chain.client, setup.relayer.address)
    facilitator.register(toX402Network(chain.chainId), new ExactEvmScheme(signer, { simulateInSettle: true }))
  }
  return facilitator
}

/**
 * The scheme's view of one chain: reads and signature checks through the chain's public client.
 * Writing is refused until settlements go through the relayer's writer (its nonce manager, its
 * writer lock, written down before broadcast: docs/decisions/0031); nothing calls it before then,
 * since only GET /x402/facilitator/supported is served.
 */
function createFacilitatorSigner(client: PublicClient, relayer: `0x${string}`): FacilitatorEvmSigner {
  const refuseWrite = (): never => {
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: 'x402 settlement asked for before it goes through the relayer writer',
      userMessage: 'Settling x402 payments is not available on this server yet.',
    })
  }
  return {
    getAddresses: () => [relayer],
    // The scheme passes viem-shaped arguments typed loosely (abi as unknown[]); viem checks them at run time.
    readContract: (args) => client.readContract(args as Parameters<PublicClient['readContract']>[0]),
    verifyTypedData: (args) => client.verifyTypedData(args as Parameters<PublicClient['verifyTypedData']>[0]),
    writeContract: async () => refuseWrite(),
    sendTransaction: async () => refuseWrite(),
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
    getCode: (args) => client.getCode(args),
  }
}
