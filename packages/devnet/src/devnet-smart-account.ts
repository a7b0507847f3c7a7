import { entryPointV08Abi } from '@quicklinks/contracts/generated/entry-point-v08'
import { quickLinksAccountAbi } from '@quicklinks/contracts/generated/quick-links-account'
import { quickLinksAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-account-factory'
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  hashMessage,
  hashTypedData,
  type LocalAccount,
  type PublicClient,
  type TypedData,
  type TypedDataDefinition,
} from 'viem'
import { getUserOperationTypedData, toSmartAccount } from 'viem/account-abstraction'
import { getChainId, readContract } from 'viem/actions'
import { entryPoints } from './deploy-account-abstraction.ts'

export type ToDevnetQuickLinksAccountOptions = {
  /** A client of the chain the account lives on (reads the counterfactual address and the nonce). */
  client: PublicClient
  /** The account's ECDSA owner. */
  owner: LocalAccount
  /** QuickLinksAccountFactory (the deployment's `contracts.accountFactory`). */
  factory: Address
  salt?: bigint
}

export type DevnetQuickLinksAccount = Awaited<ReturnType<typeof toDevnetQuickLinksAccount>>

/**
 * A minimal viem smart account for `QuickLinksAccount` (SimpleAccount v0.8 behind
 * `QuickLinksAccountFactory`), for devnet tests and benchmarks that drive a bundler. The owner
 * signs the EIP-712 user-operation hash; messages and typed data are signed over the account's
 * replay-safe digest (ERC-1271 once deployed). The product's smart accounts live in the wallet SDK.
 */
export async function toDevnetQuickLinksAccount(options: ToDevnetQuickLinksAccountOptions) {
  const { client, owner, factory, salt = 0n } = options
  const address = await readContract(client, {
    address: factory,
    abi: quickLinksAccountFactoryAbi,
    functionName: 'getAddress',
    args: [owner.address, salt],
  })
  const chainId = client.chain?.id ?? (await getChainId(client))
  const entryPoint = { abi: entryPointV08Abi, address: entryPoints.v08.address, version: '0.8' } as const

  const signReplaySafe = (hash: Hex) =>
    owner.signTypedData({
      domain: { name: 'QuickLinksAccount', version: '1', chainId, verifyingContract: address },
      types: { QuickLinksMessage: [{ name: 'hash', type: 'bytes32' }] },
      primaryType: 'QuickLinksMessage',
      message: { hash },
    })

  return toSmartAccount({
    client,
    entryPoint,
    extend: { owner },
    async decodeCalls(data) {
      const result = decodeFunctionData({ abi: quickLinksAccountAbi, data })
      if (result.functionName === 'execute')
        return [{ to: result.args[0], value: result.args[1], data: result.args[2] }]
      if (result.functionName === 'executeBatch')
        return result.args[0].map((call) => ({ to: call.target, value: call.value, data: call.data }))
      throw new Error(`cannot decode calls of ${result.functionName}`)
    },
    async encodeCalls(calls) {
      const [single] = calls
      if (calls.length === 1 && single)
        return encodeFunctionData({
          abi: quickLinksAccountAbi,
          functionName: 'execute',
          args: [single.to, single.value ?? 0n, single.data ?? '0x'],
        })
      return encodeFunctionData({
        abi: quickLinksAccountAbi,
        functionName: 'executeBatch',
        args: [calls.map((call) => ({ target: call.to, value: call.value ?? 0n, data: call.data ?? '0x' }))],
      })
    },
    async getAddress() {
      return address
    },
    async getFactoryArgs() {
      return {
        factory,
        factoryData: encodeFunctionData({
          abi: quickLinksAccountFactoryAbi,
          functionName: 'createAccount',
          args: [owner.address, salt],
        }),
      }
    },
    async getStubSignature() {
      // A well-formed 65-byte ECDSA signature that recovers to no one: gas estimation runs the same code.
      return '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'
    },
    async signMessage({ message }) {
      return signReplaySafe(hashMessage(message))
    },
    async signTypedData(parameters) {
      return signReplaySafe(hashTypedData(parameters as TypedDataDefinition<TypedData, string>))
    },
    async signUserOperation(parameters) {
      const { chainId: operationChainId = chainId, ...userOperation } = parameters
      return owner.signTypedData(
        getUserOperationTypedData({
          chainId: operationChainId,
          entryPointAddress: entryPoint.address,
          userOperation: { ...userOperation, sender: address },
        }),
      )
    },
  })
}
