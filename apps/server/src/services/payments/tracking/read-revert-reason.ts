import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { AppError } from '@quicklinks/core/app-error'
import { decodeErrorResult, type Hex, type PublicClient, parseAbi, type Transaction } from 'viem'

/** OpenZeppelin 5's ERC-20 and SafeERC20 custom errors: what a token or PayRouter's transfers revert with. */
const tokenErrorsAbi = parseAbi([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error SafeERC20FailedOperation(address token)',
  'error ReentrancyGuardReentrantCall()',
])

/** The record's error when no reason can be found (docs/product.md#errors-payment). */
export const unknownRevertReason = 'unknown reason'

/**
 * Why a mined transaction reverted: it replays the call on the state just before its block and
 * decodes the revert data (Error(string), Panic, PayRouter's and OpenZeppelin's custom errors),
 * else falls back to the node's message. Returns 'unknown reason' when the replay succeeds or says
 * nothing usable. Never throws.
 */
export async function readRevertReason(
  client: PublicClient,
  transaction: Pick<Transaction, 'from' | 'to' | 'input' | 'value' | 'gas' | 'blockNumber'>,
): Promise<string> {
  if (!transaction.to) return unknownRevertReason
  try {
    await client.call({
      account: transaction.from,
      to: transaction.to,
      data: transaction.input,
      value: transaction.value,
      gas: transaction.gas,
      ...(transaction.blockNumber && transaction.blockNumber > 0n
        ? { blockNumber: transaction.blockNumber - 1n }
        : {}),
    })
    return unknownRevertReason
  } catch (error) {
    return decodeRevert(error)
  }
}

function decodeRevert(error: unknown): string {
  const data = findRevertData(error)
  if (data && data !== '0x') {
    try {
      // viem also decodes the built-in Error(string) and Panic(uint256), which the ABI types omit.
      const decoded: { errorName: string; args?: readonly unknown[] | undefined } = decodeErrorResult({
        abi: [...payRouterAbi, ...tokenErrorsAbi],
        data,
      })
      if (decoded.errorName === 'Error') return String(decoded.args?.[0] ?? unknownRevertReason)
      if (decoded.errorName === 'Panic') return `Panic(${String(decoded.args?.[0])})`
      return `${decoded.errorName}(${(decoded.args ?? []).map(String).join(', ')})`
    } catch {
      return `reverted with data ${data.slice(0, 10)}`
    }
  }
  const message = findMessage(error)
  const match = message ? /execution reverted:?\s*(.+)/i.exec(message) : null
  return match?.[1]?.trim() || unknownRevertReason
}

function findRevertData(error: unknown): Hex | undefined {
  let found: Hex | undefined
  AppError.walk(error, (candidate) => {
    found = readHexData(candidate)
    return found !== undefined
  })
  return found
}

/** The revert data an RPC error carries as `data`, or as `data.data` (some nodes nest it). */
function readHexData(candidate: unknown): Hex | undefined {
  if (typeof candidate !== 'object' || candidate === null) return undefined
  const data = (candidate as { data?: unknown }).data
  if (typeof data === 'string' && /^0x[0-9a-fA-F]*$/.test(data)) return data as Hex
  if (typeof data === 'object' && data !== null) {
    const nested = (data as { data?: unknown }).data
    if (typeof nested === 'string' && /^0x[0-9a-fA-F]*$/.test(nested)) return nested as Hex
  }
  return undefined
}

function findMessage(error: unknown): string | undefined {
  const withDetails = AppError.walk(error, (candidate) => {
    const details = (candidate as { details?: unknown }).details
    return typeof details === 'string' && /revert/i.test(details)
  })
  if (withDetails !== undefined) return (withDetails as { details: string }).details
  return error instanceof Error ? error.message : undefined
}
