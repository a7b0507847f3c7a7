import { type Address, decodeFunctionData, type Hex, parseAbi } from 'viem'

/**
 * The account entry points our accounts share with ERC-4337 v0.8's BaseAccount: QuickLinksAccount,
 * QuickLinksMultiOwnerAccount and Simple7702Account all execute calls through these two.
 */
const accountExecuteAbi = parseAbi([
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
])

/** One call a user operation makes from the account. */
export type AccountCall = { to: Address; value: bigint; data: Hex }

/**
 * The calls a user operation's `callData` makes: one for `execute`, each of `executeBatch`'s.
 * Returns undefined for any other callData (another function, or bytes that do not decode), which
 * a sponsor must treat as unknown.
 */
export function decodeAccountCalls(callData: Hex): AccountCall[] | undefined {
  try {
    const decoded = decodeFunctionData({ abi: accountExecuteAbi, data: callData })
    if (decoded.functionName === 'execute') {
      const [to, value, data] = decoded.args
      return [{ to, value, data }]
    }
    return decoded.args[0].map((call) => ({ to: call.target, value: call.value, data: call.data }))
  } catch {
    return undefined
  }
}
