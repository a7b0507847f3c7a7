import { z } from 'zod'

/**
 * The devnet deployment file written by packages/devnet. Fields the web and e2e rely on are
 * checked; anything else the devnet adds passes through untouched.
 */
export const devnetDeploymentSchema = z.looseObject({
  chains: z.array(
    z.looseObject({
      chainId: z.number().int().positive(),
      name: z.string(),
      rpcUrl: z.string(),
      nativeSymbol: z.string(),
      tokens: z.array(z.looseObject({ symbol: z.string(), address: z.string(), decimals: z.number().int() })),
      contracts: z.record(z.string(), z.unknown()),
    }),
  ),
})

export type DevnetDeployment = z.infer<typeof devnetDeploymentSchema>
