import { z } from 'zod'

/**
 * The response shape of GET /api/dev/devnet, for the serializer and the OpenAPI document.
 * packages/devnet owns the file format (and validates it when reading); this mirrors it without
 * its transforms (a response schema must encode) and lets fields the devnet adds pass through.
 */
export const devnetDeploymentSchema = z.looseObject({
  chains: z.array(
    z.looseObject({
      chainId: z.number().int().positive(),
      name: z.string(),
      rpcUrl: z.string(),
      nativeSymbol: z.string(),
      /** The relayer account (account 9 of the test mnemonic) that PayRouter trusts to fill and settle. */
      relayer: z.string(),
      tokens: z.array(z.looseObject({ symbol: z.string(), address: z.string(), decimals: z.number().int() })),
      contracts: z.looseObject({
        weth: z.string(),
        uniswapV2Factory: z.string(),
        uniswapV2Router: z.string(),
        multicall3: z.string(),
        wethUsdcPair: z.string(),
        usdtUsdcPair: z.string(),
        /** PayRouter: pay, swap and pay, cross-chain deposit, relayer fill; same address on every chain. */
        payRouter: z.string(),
      }),
    }),
  ),
})

export type DevnetDeployment = z.infer<typeof devnetDeploymentSchema>
