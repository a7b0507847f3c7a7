import { entryPointV07Bytecode } from '@quicklinks/contracts/generated/entry-point-v07'
import { entryPointV08Abi, entryPointV08Bytecode } from '@quicklinks/contracts/generated/entry-point-v08'
import {
  quickLinksAccountFactoryAbi,
  quickLinksAccountFactoryBytecode,
} from '@quicklinks/contracts/generated/quick-links-account-factory'
import {
  quickLinksMultiOwnerAccountFactoryAbi,
  quickLinksMultiOwnerAccountFactoryBytecode,
} from '@quicklinks/contracts/generated/quick-links-multi-owner-account-factory'
import { simple7702AccountBytecode } from '@quicklinks/contracts/generated/simple7702-account'
import {
  sponsorPaymasterAbi,
  sponsorPaymasterBytecode,
} from '@quicklinks/contracts/generated/sponsor-paymaster'
import {
  type Address,
  concatHex,
  encodeAbiParameters,
  getAddress,
  getContractAddress,
  type Hex,
  type PublicClient,
  parseEther,
  type TestClient,
  type WalletClient,
  zeroHash,
} from 'viem'
import { getDevnetAccount } from './get-devnet-account.ts'

/** The CREATE2 deployer anvil (and most public chains) has at this address. */
export const deterministicDeployer: Address = getAddress('0x4e59b44847b379578588920ca78fbf26c0b4956c')

/** The ERC-4337 EntryPoints' canonical salts and addresses (the published bytecode lands there). */
export const entryPoints = {
  v07: {
    salt: '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3',
    address: getAddress('0x0000000071727De22E5E9d8BAf0edAc6f37da032'),
    bytecode: entryPointV07Bytecode,
  },
  v08: {
    salt: '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9',
    address: getAddress('0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'),
    bytecode: entryPointV08Bytecode,
  },
} as const satisfies Record<string, { salt: Hex; address: Address; bytecode: Hex }>

/**
 * Mnemonic accounts past the funded ten, each with one job so no two senders share a nonce:
 * Alto's executor (sends bundles) and utility (deploys its simulation contracts) keys, and the
 * dev sponsor service's paymaster signer. Their keys are public: devnet only.
 */
export const devnetBundlerExecutorIndex = 10
export const devnetBundlerUtilityIndex = 11
export const devnetPaymasterSignerIndex = 12

/** What the paymaster holds at the EntryPoint to pay sponsored gas with on the devnet. */
const paymasterDeposit = parseEther('1000')
/** Native currency for the bundler's executor and utility accounts. */
const bundlerAccountBalance = parseEther('1000')

export type AccountAbstractionContracts = {
  entryPointV07: Address
  entryPointV08: Address
  /** QuickLinksAccountFactory: single-owner accounts (SimpleAccount v0.8 + ERC-1271). */
  accountFactory: Address
  /** QuickLinksMultiOwnerAccountFactory. */
  multiOwnerAccountFactory: Address
  /** Simple7702Account: the implementation an EOA delegates to (EIP-7702). */
  simple7702Account: Address
  /** SponsorPaymaster, signed for by the dev sponsor service's key, with a deposit at v0.8. */
  sponsorPaymaster: Address
}

/** The address `deterministicDeployer` gives `initCode` with `salt`. Pure. */
export function getDeterministicAddress(initCode: Hex, salt: Hex = zeroHash): Address {
  return getContractAddress({ opcode: 'CREATE2', from: deterministicDeployer, salt, bytecode: initCode })
}

/**
 * Where each account-abstraction contract lands for a given paymaster signer and owner. Pure: the
 * addresses are the same on every chain, which is what makes a smart account's counterfactual
 * address the same everywhere.
 */
export function getAccountAbstractionAddresses(paymaster: PaymasterConstructorArguments) {
  return {
    entryPointV07: entryPoints.v07.address,
    entryPointV08: entryPoints.v08.address,
    accountFactory: getDeterministicAddress(accountFactoryInitCode()),
    multiOwnerAccountFactory: getDeterministicAddress(multiOwnerAccountFactoryInitCode()),
    simple7702Account: getDeterministicAddress(simple7702AccountBytecode),
    sponsorPaymaster: getDeterministicAddress(sponsorPaymasterInitCode(paymaster)),
  } satisfies AccountAbstractionContracts
}

function withConstructorArguments(bytecode: Hex, types: { type: string }[], values: unknown[]): Hex {
  return concatHex([bytecode, encodeAbiParameters(types, values)])
}
function accountFactoryInitCode(): Hex {
  return withConstructorArguments(
    quickLinksAccountFactoryBytecode,
    [{ type: 'address' }],
    [entryPoints.v08.address],
  )
}
function multiOwnerAccountFactoryInitCode(): Hex {
  return withConstructorArguments(
    quickLinksMultiOwnerAccountFactoryBytecode,
    [{ type: 'address' }],
    [entryPoints.v08.address],
  )
}
/**
 * SponsorPaymaster's constructor: the key it trusts, its owner, and the bundler executors whose
 * transactions it pays for (devnet: Alto's executor, account 10).
 */
export type PaymasterConstructorArguments = { signer: Address; owner: Address; bundlers: readonly Address[] }

function sponsorPaymasterInitCode(paymaster: PaymasterConstructorArguments): Hex {
  return withConstructorArguments(
    sponsorPaymasterBytecode,
    [{ type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'address[]' }],
    [entryPoints.v08.address, paymaster.signer, paymaster.owner, paymaster.bundlers],
  )
}

export type DeployAccountAbstractionOptions = {
  publicClient: PublicClient
  walletClient: WalletClient
  testClient: TestClient
  /** Sends the deployments and the paymaster deposit (an unlocked anvil account). */
  deployer: Address
  chainName: string
}

/**
 * Deploys ERC-4337 on one devnet chain through the deterministic deployer: EntryPoint v0.7 and
 * v0.8 at their canonical addresses, our account factories, Simple7702Account and SponsorPaymaster
 * (signer: mnemonic account 12, owner: `deployer`, bundler: Alto's executor, account 10) with a
 * 1,000 native deposit, and funds the
 * bundler's executor and utility accounts. A contract already at its address is kept. Throws when
 * a deployment reverts or lands somewhere other than predicted (the published EntryPoint bytecode
 * no longer matching the canonical one, for instance).
 */
export async function deployAccountAbstraction(
  options: DeployAccountAbstractionOptions,
): Promise<AccountAbstractionContracts> {
  const { publicClient, walletClient, testClient, deployer, chainName } = options
  const paymasterArguments: PaymasterConstructorArguments = {
    signer: getDevnetAccount(devnetPaymasterSignerIndex).address,
    owner: deployer,
    bundlers: [getDevnetAccount(devnetBundlerExecutorIndex).address],
  }
  const addresses = getAccountAbstractionAddresses(paymasterArguments)

  const deploy = async (what: string, initCode: Hex, salt: Hex, expected: Address): Promise<void> => {
    const existing = await publicClient.getCode({ address: expected })
    if (existing !== undefined && existing !== '0x') return
    const hash = await walletClient.sendTransaction({
      account: deployer,
      chain: null,
      to: deterministicDeployer,
      data: concatHex([salt, initCode]),
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    const code = await publicClient.getCode({ address: expected })
    if (receipt.status !== 'success' || code === undefined || code === '0x') {
      throw new Error(`${chainName}: deploying ${what} did not put code at ${expected} (transaction ${hash})`)
    }
  }

  await deploy('EntryPoint v0.7', entryPoints.v07.bytecode, entryPoints.v07.salt, addresses.entryPointV07)
  await deploy('EntryPoint v0.8', entryPoints.v08.bytecode, entryPoints.v08.salt, addresses.entryPointV08)
  await deploy('QuickLinksAccountFactory', accountFactoryInitCode(), zeroHash, addresses.accountFactory)
  await deploy(
    'QuickLinksMultiOwnerAccountFactory',
    multiOwnerAccountFactoryInitCode(),
    zeroHash,
    addresses.multiOwnerAccountFactory,
  )
  await deploy('Simple7702Account', simple7702AccountBytecode, zeroHash, addresses.simple7702Account)
  await deploy(
    'SponsorPaymaster',
    sponsorPaymasterInitCode(paymasterArguments),
    zeroHash,
    addresses.sponsorPaymaster,
  )

  const deposit = await publicClient.readContract({
    address: addresses.entryPointV08,
    abi: entryPointV08Abi,
    functionName: 'balanceOf',
    args: [addresses.sponsorPaymaster],
  })
  if (deposit < paymasterDeposit) {
    const hash = await walletClient.writeContract({
      account: deployer,
      chain: null,
      address: addresses.sponsorPaymaster,
      abi: sponsorPaymasterAbi,
      functionName: 'deposit',
      value: paymasterDeposit - deposit,
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== 'success')
      throw new Error(`${chainName}: the paymaster deposit reverted (${hash})`)
  }
  for (const index of [devnetBundlerExecutorIndex, devnetBundlerUtilityIndex]) {
    await testClient.setBalance({ address: getDevnetAccount(index).address, value: bundlerAccountBalance })
  }
  // The factories are what an account's address depends on: check they answer as expected.
  await publicClient.readContract({
    address: addresses.accountFactory,
    abi: quickLinksAccountFactoryAbi,
    functionName: 'accountImplementation',
  })
  await publicClient.readContract({
    address: addresses.multiOwnerAccountFactory,
    abi: quickLinksMultiOwnerAccountFactoryAbi,
    functionName: 'accountImplementation',
  })
  return addresses
}
