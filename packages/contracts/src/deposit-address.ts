import {
  type Address,
  concatHex,
  encodeAbiParameters,
  getAddress,
  getContractAddress,
  type Hex,
  keccak256,
  parseAbiParameters,
} from 'viem'
import { depositFactoryBytecode } from '../generated/deposit-factory.ts'
import { depositForwarderBytecode } from '../generated/deposit-forwarder.ts'

/** The CREATE2 deployer anvil and most public chains have at this address (Arachnid's). */
export const deterministicDeployerAddress: Address = getAddress('0x4e59b44847b379578588920ca78fbf26c0b4956c')

/** What a deposit address commits to (DepositTerms.sol); addresses checksummed, native = address(0). */
export type DepositTerms = {
  depositId: Hex
  payRouter: Address
  receiver: Address
  destinationChainId: bigint
  destinationToken: Address
  refundAddress: Address
  expiresAt: bigint
}

const termsParameters = parseAbiParameters(
  '(bytes32 depositId, address payRouter, address receiver, uint256 destinationChainId, address destinationToken, address refundAddress, uint64 expiresAt)',
)

/** DepositFactory's init code for `operator`: what the deterministic deployer is sent after the salt. */
export function getDepositFactoryInitCode(operator: Address): Hex {
  return concatHex([depositFactoryBytecode, encodeAbiParameters([{ type: 'address' }], [operator])])
}

const factoryAddresses = new Map<Address, Address>()

/**
 * Where the deterministic deployer puts DepositFactory for `operator` (salt zero). Pure: equal on
 * every chain, which is what makes a deposit's address equal on every chain.
 */
export function getDepositFactoryAddress(operator: Address): Address {
  // Remembered per operator (there is one per deployment): the deposit watcher asks every round,
  // and hashing the factory's init code each time was a visible part of an idle server's CPU.
  let address = factoryAddresses.get(operator)
  if (address === undefined) {
    address = getContractAddress({
      opcode: 'CREATE2',
      from: deterministicDeployerAddress,
      salt: `0x${'0'.repeat(64)}`,
      bytecode: getDepositFactoryInitCode(operator),
    })
    if (factoryAddresses.size >= 16) factoryAddresses.clear()
    factoryAddresses.set(operator, address)
  }
  return address
}

/** DepositFactory.saltOf: keccak256(abi.encode(terms)). Pure. */
export function getDepositSalt(terms: DepositTerms): Hex {
  return keccak256(encodeAbiParameters(termsParameters, [terms]))
}

/**
 * The forwarder address of `terms` under the factory of `operator` (DepositFactory.addressOf),
 * computed off chain so a deposit address can be shown before anything is deployed. Pure.
 */
export function getDepositAddress(operator: Address, terms: DepositTerms): Address {
  const initCode = concatHex([
    depositForwarderBytecode,
    encodeAbiParameters([{ type: 'address' }, ...termsParameters], [operator, terms]),
  ])
  return getContractAddress({
    opcode: 'CREATE2',
    from: getDepositFactoryAddress(operator),
    salt: getDepositSalt(terms),
    bytecode: initCode,
  })
}
