import { readFile, rename, writeFile } from 'node:fs/promises'
import { getAddress } from 'viem'
import { z } from 'zod'

const addressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 20-byte hex address')
  .transform((value) => getAddress(value))

export const devnetTokenSchema = z.object({
  symbol: z.string().min(1),
  address: addressSchema,
  decimals: z.number().int().min(0).max(255),
  /**
   * A token that takes signed approvals and transfers (the devnet's USDC): its EIP-712 domain name
   * and version, whether it has EIP-2612 `permit` and EIP-3009 `…WithAuthorization`. Absent for
   * plain tokens.
   */
  signatures: z
    .object({
      name: z.string().min(1),
      version: z.string().min(1),
      permit: z.boolean(),
      authorizations: z.boolean(),
    })
    .optional(),
})

export const devnetChainDeploymentSchema = z.object({
  chainId: z.number().int().positive(),
  name: z.string().min(1),
  rpcUrl: z.url(),
  /** The chain's ERC-4337 bundler (Alto on the devnet), serving EntryPoint v0.7 and v0.8. */
  bundlerUrl: z.url(),
  nativeSymbol: z.string().min(1),
  /**
   * The relayer account (account 9 of the test mnemonic): the only account that may fill intents
   * and settle escrows on this chain's PayRouter. An account, not a contract, so it lives here.
   */
  relayer: addressSchema,
  /** USDC, USDT and the wrapped native token, in that order. */
  tokens: z.array(devnetTokenSchema),
  contracts: z.object({
    /** The wrapped native token (WETH9 code; WETH or WAVAX by chain). */
    weth: addressSchema,
    uniswapV2Factory: addressSchema,
    uniswapV2Router: addressSchema,
    multicall3: addressSchema,
    /** Uniswap V2 pair of the wrapped native token and USDC. */
    wethUsdcPair: addressSchema,
    /** Uniswap V2 pair of USDT and USDC. */
    usdtUsdcPair: addressSchema,
    /** PayRouter (same address on every chain), constructed with this chain's router, weth and relayer. */
    payRouter: addressSchema,
    /** ERC-4337 EntryPoint v0.7 at its canonical address (Alto serves it too). */
    entryPointV07: addressSchema,
    /** ERC-4337 EntryPoint v0.8 at its canonical address: the one our accounts and paymaster use. */
    entryPointV08: addressSchema,
    /** QuickLinksAccountFactory (deterministic address): single-owner smart accounts. */
    accountFactory: addressSchema,
    /** QuickLinksMultiOwnerAccountFactory (deterministic address). */
    multiOwnerAccountFactory: addressSchema,
    /** Simple7702Account: the EIP-7702 delegation target (deterministic address). */
    simple7702Account: addressSchema,
    /** SponsorPaymaster (deterministic address), signed for by the dev sponsor service's key. */
    sponsorPaymaster: addressSchema,
    /**
     * DepositFactory (deterministic address, docs/decisions/0030): deposit forwarders of the devnet's
     * deposit operator (mnemonic account 13). Optional: deployments written before deposits lack it.
     */
    depositFactory: addressSchema.optional(),
  }),
})

/** The devnet as the server serves it at GET /api/dev/devnet, and as `deployment.json` stores it. */
export const devnetDeploymentSchema = z.object({ chains: z.array(devnetChainDeploymentSchema) })

export type DevnetToken = z.infer<typeof devnetTokenSchema>
export type DevnetChainDeployment = z.infer<typeof devnetChainDeploymentSchema>
/** What deploying a chain produces: its deployment but the bundler, which runs beside the chain. */
export type DeployedDevnetChain = Omit<DevnetChainDeployment, 'bundlerUrl'>
export type DevnetDeployment = z.infer<typeof devnetDeploymentSchema>

/**
 * Reads and validates a deployment file written by `startDevnet`, so consumers get checksummed,
 * typed addresses. Throws when the file is missing or unreadable, is not JSON, or does not match
 * the schema; the error names the file and keeps the underlying error as `cause`.
 */
export async function readDeployment(file: string): Promise<DevnetDeployment> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new Error(`cannot read the devnet deployment file ${file}`, { cause: error })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`the devnet deployment file ${file} is not valid JSON`, { cause: error })
  }
  const parsed = devnetDeploymentSchema.safeParse(json)
  if (!parsed.success) {
    throw new Error(
      `the devnet deployment file ${file} is not a devnet deployment: ${z.prettifyError(parsed.error)}`,
      {
        cause: parsed.error,
      },
    )
  }
  return parsed.data
}

/**
 * Writes a deployment file atomically (temporary file, then rename), so a server reading it while
 * the devnet starts never sees half of it. Throws on file-system errors.
 */
export async function writeDeployment(file: string, deployment: DevnetDeployment): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`
  await writeFile(temporary, `${JSON.stringify(deployment, null, 2)}\n`)
  await rename(temporary, file)
}
