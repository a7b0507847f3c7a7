import { existsSync } from 'node:fs'
import { AppError } from '@quicklinks/core/app-error'
import type { DevnetDeployment, DevnetToken } from '@quicklinks/devnet/devnet-deployment'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import type { LocalAccount, PublicClient } from 'viem'
import type { ServerConfig } from '../../config/server-env.ts'
import { getChainRpcUrl } from '../chains/get-chain-rpc-url.ts'
import { getLocalPublicClient } from '../chains/get-local-public-client.ts'
import { getRelayerAccount } from '../payments/providers/local/relayer/get-relayer-account.ts'

/** A token x402's `exact` scheme can move: one with EIP-3009 `transferWithAuthorization`. */
export type X402Token = DevnetToken & { signatures: NonNullable<DevnetToken['signatures']> }

/** A chain the facilitator settles on: its EIP-3009 tokens and a client of its RPC. */
export type X402Chain = { chainId: number; tokens: X402Token[]; client: PublicClient }

/** What x402 runs on (docs/decisions/0031): the relayer's key pays the gas on every chain. */
export type X402Setup = { relayer: LocalAccount; chains: X402Chain[] }

/** The deployment's chains that have at least one EIP-3009 token, with those tokens. Pure. */
export function listX402Chains(
  deployment: DevnetDeployment,
  getClient: (chainId: number) => PublicClient,
): X402Chain[] {
  const chains: X402Chain[] = []
  for (const chain of deployment.chains) {
    const tokens = chain.tokens.filter(
      (token): token is X402Token => token.signatures?.authorizations === true,
    )
    if (tokens.length > 0) chains.push({ chainId: chain.chainId, tokens, client: getClient(chain.chainId) })
  }
  return chains
}

/**
 * Reads what x402 needs, or undefined when it cannot run here: no relayer key (RELAYER_PRIVATE_KEY,
 * or the devnet's in dev mode) or no deployment file. Throws when the deployment file is unreadable.
 */
export async function readX402Setup(
  config: Pick<ServerConfig, 'relayerPrivateKey' | 'devMode' | 'devnetDeploymentFile' | 'rpcUrls'>,
): Promise<X402Setup | undefined> {
  const relayer = getRelayerAccount(config)
  if (!relayer || !existsSync(config.devnetDeploymentFile)) return undefined
  const deployment = await getDevnetDeploymentOrThrow(config.devnetDeploymentFile)
  const chains = listX402Chains(deployment, (chainId) =>
    getLocalPublicClient(getChainRpcUrl(config, chainId, deployment.chains)),
  )
  return { relayer, chains }
}

/** Like readX402Setup, but 503 with a sentence an agent's developer can act on when x402 cannot run. */
export async function readX402SetupOrThrow(config: Parameters<typeof readX402Setup>[0]): Promise<X402Setup> {
  const setup = await readX402Setup(config)
  if (setup) return setup
  throw new AppError('SERVICE_UNAVAILABLE', {
    message: 'x402 asked for without a relayer key or a deployment',
    userMessage: 'Paying over x402 is not available on this server: it has no relayer key or no chains.',
  })
}
