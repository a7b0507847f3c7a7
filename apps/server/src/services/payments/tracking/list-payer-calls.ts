import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { decodeAbiParameters, decodeFunctionData, type Hex, parseAbi, parseAbiParameters, slice } from 'viem'

/** One call the payer's transaction makes as the payer: the contract, its calldata and value. */
export type PayerCall = { to: string; data: string; value: bigint }

/**
 * The batch entries of accounts an EOA delegates to (EIP-7702) for ERC-5792 atomic batches:
 * eth-infinitism's `executeBatch` (Simple7702Account, the devnet's) and ERC-7821's `execute`
 * (MetaMask's delegator, Porto, Ambire and others).
 */
const batchAbi = parseAbi([
  'struct Call { address target; uint256 value; bytes data; }',
  'function executeBatch(Call[] calls)',
  'function execute(bytes32 mode, bytes executionData)',
])
const erc7821Calls = parseAbiParameters('(address to, uint256 value, bytes data)[]')
const erc7821CallsWithOpData = parseAbiParameters('(address to, uint256 value, bytes data)[], bytes')
/** ERC-7821 mode: call type 0x01 (batch); bytes 6-9 0x78210001 when the calls carry opData. */
const batchCallType = '0x01'
const opDataSelector = '0x78210001'

/**
 * The calls a mined transaction makes as its sender, as the route matcher compares them with the
 * route's (docs/decisions/0029):
 * - a plain transaction is its one call;
 * - a transaction an EOA sends to itself (its EIP-7702 delegate) with `executeBatch` or ERC-7821
 *   `execute` is the calls of the batch, which run as the EOA (an ERC-5792 `wallet_sendCalls`);
 * - a call of PayRouter's `permitAndCall` is the PayRouter call it wraps (it runs as the caller,
 *   behind a permit instead of an approval), with no value (permitAndCall is not payable).
 * What a call claims is not what it did: the verifier credits only what the chain's logs show.
 * Pure; never throws (undecodable input is a plain call).
 */
export function listPayerCalls(transaction: {
  from: string
  to: string | null
  input: string
  value: bigint
}): PayerCall[] {
  const to = transaction.to ?? ''
  const plain: PayerCall = { to, data: transaction.input, value: transaction.value }
  const calls =
    to.toLowerCase() === transaction.from.toLowerCase()
      ? (decodeBatch(transaction.input) ?? [plain])
      : [plain]
  return calls.map(unwrapPermitAndCall)
}

function decodeBatch(input: string): PayerCall[] | null {
  try {
    const decoded = decodeFunctionData({ abi: batchAbi, data: input as Hex })
    if (decoded.functionName === 'executeBatch') {
      return decoded.args[0].map((call) => ({ to: call.target, data: call.data, value: call.value }))
    }
    const [mode, executionData] = decoded.args
    if (slice(mode, 0, 1) !== batchCallType) return null
    const [calls] =
      slice(mode, 6, 10) === opDataSelector
        ? decodeAbiParameters(erc7821CallsWithOpData, executionData)
        : decodeAbiParameters(erc7821Calls, executionData)
    return calls.map((call) => ({ to: call.to, data: call.data, value: call.value }))
  } catch {
    return null
  }
}

function unwrapPermitAndCall(call: PayerCall): PayerCall {
  try {
    const decoded = decodeFunctionData({ abi: payRouterAbi, data: call.data as Hex })
    if (decoded.functionName !== 'permitAndCall') return call
    return { to: call.to, data: decoded.args[6], value: call.value }
  } catch {
    return call
  }
}
