import { toX402Network } from '@quicklinks/core/api/x402'
import { x402Facilitator } from '@x402/core/facilitator'
import type { FacilitatorEvmSigner } from '@x402/evm'
import { ExactEvmScheme } from '@x402/evm/exact/facilitator'
import { concat, encodeFunctionData, type Hex, isAddressEqual, type PublicClient } from 'viem'
import type { X402Chain, X402Setup } from './read-x402-setup.ts'
import type { X402Settler } from './settlements/create-x402-settler.ts'

/** How long a settlement waits for its receipt before the library answers `settlement_pending`. */
const receiptTimeoutMs = 30_000

/**
 * Our x402 facilitator (docs/decisions/0031): `@x402/core`'s x402Facilitator with `@x402/evm`'s
 * `exact` scheme registered per chain (not `registerExactEvmScheme`, which takes one signer for every
 * chain and registers x402 v1 too), each signing as the relayer: its writes go through `settler`
 * (the relayer's nonce manager and writer, written down before they are sent). Pure: builds objects.
 */
export function createX402Facilitator(setup: X402Setup, settler: X402Settler): x402Facilitator {
  const facilitator = new x402Facilitator()
  for (const chain of setup.chains) {
    const signer = createFacilitatorSigner(chain, setup.relayer.address, settler)
    facilitator.register(toX402Network(chain.chainId), new ExactEvmScheme(signer, { simulateInSettle: true }))
  }
  return facilitator
}

/**
 * The scheme's view of one chain: reads and signature checks through the chain's public client;
 * writes only `transferWithAuthorization` on one of the chain's EIP-3009 tokens, handed to the
 * settler keyed by the authorization (payer and nonce). Anything else (a smart-wallet deployment,
 * Permit2) is refused: this facilitator offers neither.
 */
function createFacilitatorSigner(
  chain: X402Chain,
  relayer: `0x${string}`,
  settler: X402Settler,
): FacilitatorEvmSigner {
  const client = chain.client
  return {
    getAddresses: () => [relayer],
    // The scheme passes viem-shaped arguments typed loosely (abi as unknown[]); viem checks them at run time.
    readContract: (args) => client.readContract(args as Parameters<PublicClient['readContract']>[0]),
    verifyTypedData: (args) => client.verifyTypedData(args as Parameters<PublicClient['verifyTypedData']>[0]),
    writeContract: async (args) => {
      const [payer, , , , , nonce] = args.args
      const isToken = chain.tokens.some((token) => isAddressEqual(token.address, args.address))
      if (args.functionName !== 'transferWithAuthorization' || !isToken || !isHex(payer) || !isHex(nonce)) {
        throw new Error(
          `This facilitator only settles EIP-3009 transferWithAuthorization on chain ${chain.chainId}`,
        )
      }
      const call = encodeFunctionData({
        abi: args.abi as Parameters<typeof encodeFunctionData>[0]['abi'],
        functionName: args.functionName,
        args: args.args,
      })
      return settler.submit({
        network: toX402Network(chain.chainId),
        chainId: chain.chainId,
        asset: args.address,
        payer,
        nonce,
        data: args.dataSuffix ? concat([call, args.dataSuffix]) : call,
      })
    },
    sendTransaction: async () => {
      throw new Error('This facilitator sends no transactions other than transferWithAuthorization')
    },
    waitForTransactionReceipt: (args) =>
      client.waitForTransactionReceipt({ hash: args.hash, timeout: args.timeout ?? receiptTimeoutMs }),
    getCode: (args) => client.getCode(args),
  }
}

function isHex(value: unknown): value is Hex {
  return typeof value === 'string' && value.startsWith('0x')
}
