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
      tokens: z.array(z.looseObject({ symbol: z.string(), address: z.string(), decimals: z.number().int() })),
      contracts: z.record(z.string(), z.unknown()),
    }),
  ),
})

export type DevnetDeployment = z.infer<typeof devnetDeploymentSchema>
