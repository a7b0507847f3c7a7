import { existsSync } from 'node:fs'
import { getDepositFactoryAddress } from '@quicklinks/contracts/deposit-address'
import { AppError } from '@quicklinks/core/app-error'
import type { DevnetChainDeployment, DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import { getAddress, type LocalAccount, type PublicClient } from 'viem'
import type { ServerConfig } from '../../../config/server-env.ts'
import { getChainRpcUrl } from '../../chains/get-chain-rpc-url.ts'
import { getLocalPublicClient } from '../../chains/get-local-public-client.ts'
import { getSigningAccount } from '../../chains/get-signing-account.ts'

/** Index of the devnet's deposit operator in the test mnemonic (packages/devnet deploy-deposit-factory.ts). */
export const devnetDepositOperatorIndex = 13

/** What deposits run on: the chains whose factory and PayRouter make one address, and the operator. */
export type DepositSetup = {
  operator: LocalAccount
  factory: `0x${string}`
  /** The PayRouter every deposit forwards into (the same address on each of `chains`). */
  payRouter: `0x${string}`
  /** The deployment's chains that have this factory and this PayRouter. */
  chains: DevnetChainDeployment[]
  getClient(chainId: number): PublicClient
}

/** The deposit operator's key: DEPOSIT_OPERATOR_PRIVATE_KEY, else the devnet's in dev mode, else none. */
export function getDepositOperatorAccount(
  config: Pick<ServerConfig, 'depositOperatorPrivateKey' | 'devMode'>,
): LocalAccount | undefined {
  return getSigningAccount(config.depositOperatorPrivateKey, config.devMode, devnetDepositOperatorIndex)
}

/**
 * Reads what deposits need, or undefined when they cannot run here: no operator key, no deployment
 * file (PayRouter and DepositFactory per chain), or no chain with this operator's DepositFactory.
 * Only chains whose PayRouter is the first such chain's are kept, since the deposit address commits to one PayRouter. Throws when the
 * deployment file is unreadable.
 */
export async function readDepositSetup(
  config: Pick<ServerConfig, 'depositOperatorPrivateKey' | 'devMode' | 'devnetDeploymentFile' | 'rpcUrls'>,
): Promise<DepositSetup | undefined> {
  const operator = getDepositOperatorAccount(config)
  if (!operator || !existsSync(config.devnetDeploymentFile)) return undefined
  const deployment: DevnetDeployment = await getDevnetDeploymentOrThrow(config.devnetDeploymentFile)
  const factory = getDepositFactoryAddress(operator.address)
  const withFactory = deployment.chains.filter(
    (chain) =>
      chain.contracts.depositFactory !== undefined && getAddress(chain.contracts.depositFactory) === factory,
  )
  const payRouter = withFactory[0]?.contracts.payRouter
  if (!payRouter) return undefined
  const chains = withFactory.filter((chain) => chain.contracts.payRouter === payRouter)
  return {
    operator,
    factory,
    payRouter,
    chains,
    getClient: (chainId) => getLocalPublicClient(getChainRpcUrl(config, chainId, deployment.chains)),
  }
}

/** Like readDepositSetup, but 503 with a sentence the payer can read when deposits cannot run. */
export async function readDepositSetupOrThrow(
  config: Parameters<typeof readDepositSetup>[0],
): Promise<DepositSetup> {
  const setup = await readDepositSetup(config)
  if (setup) return setup
  throw new AppError('SERVICE_UNAVAILABLE', {
    message: 'Deposit asked for without an operator key, a deployment or a DepositFactory on any chain',
    userMessage:
      'Paying from any wallet or exchange is not available on this server: connect a wallet instead.',
  })
}
