import {
  deterministicDeployerAddress,
  getDepositFactoryAddress,
  getDepositFactoryInitCode,
} from '@quicklinks/contracts/deposit-address'
import {
  type Address,
  concatHex,
  type PublicClient,
  parseEther,
  type TestClient,
  type WalletClient,
  zeroHash,
} from 'viem'
import type { HDAccount } from 'viem/accounts'
import { getDevnetAccount } from './get-devnet-account.ts'

/**
 * The mnemonic account that is the devnet's deposit operator: it deploys deposit forwarders and
 * forwards or refunds what they hold (gas only; DepositFactory's only constructor argument). Past
 * the ones account abstraction uses (10-12), so its nonces race no one's. Its key is public.
 */
export const devnetDepositOperatorIndex = 13

/** Native currency the deposit operator gets on every chain, for the gas of forwards and refunds. */
const depositOperatorBalance = parseEther('1000')

/** The devnet's deposit operator as a viem account that signs locally. */
export function getDevnetDepositOperatorAccount(): HDAccount {
  return getDevnetAccount(devnetDepositOperatorIndex)
}

export type DeployDepositFactoryOptions = {
  publicClient: PublicClient
  walletClient: WalletClient
  testClient: TestClient
  /** Sends the deployment (an unlocked anvil account). */
  deployer: Address
  chainName: string
}

/**
 * Deploys DepositFactory for the devnet's deposit operator through the deterministic CREATE2
 * deployer (same address on every chain, hence one deposit address everywhere) and funds the
 * operator's gas. A factory already there is kept. Throws when the deployment reverts or lands
 * elsewhere than predicted.
 */
export async function deployDepositFactory(options: DeployDepositFactoryOptions): Promise<Address> {
  const { publicClient, walletClient, testClient, deployer, chainName } = options
  const operator = getDevnetDepositOperatorAccount().address
  const factory = getDepositFactoryAddress(operator)
  const existing = await publicClient.getCode({ address: factory })
  if (existing === undefined || existing === '0x') {
    const hash = await walletClient.sendTransaction({
      account: deployer,
      chain: null,
      to: deterministicDeployerAddress,
      data: concatHex([zeroHash, getDepositFactoryInitCode(operator)]),
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    const code = await publicClient.getCode({ address: factory })
    if (receipt.status !== 'success' || code === undefined || code === '0x') {
      throw new Error(
        `${chainName}: deploying DepositFactory did not put code at ${factory} (transaction ${hash})`,
      )
    }
  }
  await testClient.setBalance({ address: operator, value: depositOperatorBalance })
  return factory
}
