import { quickLinksAccountAbi } from '@quicklinks/contracts/generated/quick-links-account'
import { quickLinksAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-account-factory'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { isSignerWallet } from '@quicklinks/signer/api/is-signer-wallet'
import {
  type Address,
  decodeFunctionData,
  getAddress,
  type Hex,
  isAddressEqual,
  type PublicClient,
  sliceHex,
  zeroAddress,
} from 'viem'
import { findOwnAccountKind, type OwnAccountKind } from './find-own-account-kind.ts'
import { JsonRpcError, jsonRpcErrorCodes } from './json-rpc-error.ts'
import type { SmartAccountChain } from './list-smart-account-chains.ts'
import { getFactoryAddress, type RpcUserOperation } from './rpc-user-operation.ts'

export type SponsoredSenderInput = {
  db: Database
  client: PublicClient
  chain: SmartAccountChain
  user: { address: Address }
  operation: RpcUserOperation
  policyId: string
}

/**
 * Checks that a policy with `accounts: "embedded"` may pay for the operation's sender, and answers
 * the EIP-7702 delegate the paymaster's signature must name (Simple7702Account for the user's own
 * EOA, zeroAddress for a smart account). The sender must be one of the signed-in user's own accounts
 * (`findOwnAccountKind`) and be, or be owned by, an embedded wallet of the signer: the user's EOA
 * when it is a signer wallet (itself under EIP-7702, its QuickLinksAccount at salt 0, a multi-owner
 * account it owns), or, for a user signed in as a QuickLinksAccount itself, that account's owner
 * when it is a signer wallet and the account is its salt-0 account. So a fresh EOA signing in with
 * Ethereum, or the same wallet signing in as its smart accounts at other salts, gets no new daily
 * cap. An EIP-7702 sender must delegate to Simple7702Account (by its `eip7702Auth`, else its code).
 * Rejects with JsonRpcError NOT_SPONSORED otherwise, and when the chain or the database fails.
 */
export async function assertSponsoredSender(input: SponsoredSenderInput): Promise<{ delegate: Address }> {
  const { client, chain, operation, policyId } = input
  const kind = await findOwnAccountKind({
    client,
    chain,
    userAddress: input.user.address,
    operation,
  })
  if (kind === undefined) {
    throw refuse(
      `Only your own accounts' operations are sponsored; ${operation.sender} is not one of them.`,
      policyId,
    )
  }
  const wallet = await findEmbeddedOwner(input, kind)
  if (wallet === undefined || !(await isSignerWallet(input.db, wallet))) {
    throw refuse(
      'Gas is sponsored only for embedded wallets and the smart accounts they own. Sign in with your Quick Links wallet.',
      policyId,
    )
  }
  if (kind !== 'eip7702') return { delegate: zeroAddress }
  // The EOA's calls mean what Simple7702Account makes of them only when it delegates there.
  const delegate = operation.eip7702Auth?.address ?? (await readDelegate(client, operation.sender))
  if (delegate === undefined || !isAddressEqual(delegate, chain.simple7702Account)) {
    throw refuse(
      `Your address is sponsored only when it delegates to Simple7702Account (${chain.simple7702Account}).`,
      policyId,
    )
  }
  return { delegate: chain.simple7702Account }
}

/** The wallet that must be the signer's for the sender to count as embedded, or undefined. */
async function findEmbeddedOwner(
  input: SponsoredSenderInput,
  kind: OwnAccountKind,
): Promise<Address | undefined> {
  const { operation, user } = input
  // The user's own smart account or a multi-owner account they own: the user's EOA signs for it.
  if (!isAddressEqual(operation.sender, user.address)) return user.address
  if (kind === 'eip7702') return operation.sender
  // A multi-owner account signed in as itself has no one wallet behind it.
  if (kind !== 'smart-account') return undefined
  const owner = await readSingleOwner(input)
  if (owner === undefined) return undefined
  const saltZeroAccount = await input.client.readContract({
    address: input.chain.accountFactory,
    abi: quickLinksAccountFactoryAbi,
    functionName: 'getAddress',
    args: [owner, 0n],
  })
  return isAddressEqual(saltZeroAccount, operation.sender) ? owner : undefined
}

/** A QuickLinksAccount's owner: from its `createAccount(owner, salt)` while undeployed, else its `owner()`. */
async function readSingleOwner(input: SponsoredSenderInput): Promise<Address | undefined> {
  const { operation } = input
  if (getFactoryAddress(operation) !== undefined) {
    try {
      const decoded = decodeFunctionData({
        abi: quickLinksAccountFactoryAbi,
        data: (operation.factoryData ?? '0x') as Hex,
      })
      return decoded.functionName === 'createAccount' ? decoded.args[0] : undefined
    } catch {
      return undefined
    }
  }
  return input.client.readContract({
    address: operation.sender,
    abi: quickLinksAccountAbi,
    functionName: 'owner',
  })
}

/** The EIP-7702 delegate of an EOA (its code is 0xef0100 ‖ address), or undefined. */
async function readDelegate(client: PublicClient, address: Address): Promise<Address | undefined> {
  const code = await client.getCode({ address })
  if (code === undefined || code.length !== 48 || !code.toLowerCase().startsWith('0xef0100')) return undefined
  return getAddress(sliceHex(code, 3))
}

function refuse(message: string, policyId: string): JsonRpcError {
  return new JsonRpcError({
    code: jsonRpcErrorCodes.sponsorRefused,
    message,
    data: { reason: 'NOT_SPONSORED', policyId },
  })
}
