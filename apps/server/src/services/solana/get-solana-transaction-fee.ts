import type {
  CompiledTransactionMessageWithLifetime,
  LegacyCompiledTransactionMessage,
  V0CompiledTransactionMessage,
} from '@solana/kit'

/** A compiled message of the versions the endpoint reads (legacy and version 0), with its blockhash or nonce. */
export type ReadableCompiledMessage = (LegacyCompiledTransactionMessage | V0CompiledTransactionMessage) &
  CompiledTransactionMessageWithLifetime

/** The Compute Budget program, whose instructions set a transaction's compute-unit limit and price. */
export const computeBudgetProgramId = 'ComputeBudget111111111111111111111111111111'

/** Lamports each required signature costs (Solana's base fee). */
export const lamportsPerSignature = 5_000n

/** Compute units granted per instruction that is not a Compute Budget one, when no limit is set. */
const defaultComputeUnitsPerInstruction = 200_000n
const maxComputeUnits = 1_400_000n
const microLamportsPerLamport = 1_000_000n

/**
 * The fee a compiled transaction message costs, as the Solana runtime charges it: 5,000 lamports
 * per required signature plus the priority fee, the Compute Budget program's SetComputeUnitPrice
 * (micro-lamports per unit) times its SetComputeUnitLimit (else 200,000 units per other
 * instruction, at most 1,400,000), rounded up to whole lamports.
 */
export function getSolanaTransactionFee(message: ReadableCompiledMessage): {
  feeLamports: bigint
  signatureFeeLamports: bigint
  priorityFeeLamports: bigint
} {
  let computeUnitLimit: bigint | undefined
  let microLamportsPerUnit = 0n
  let otherInstructions = 0n
  for (const instruction of message.instructions) {
    const programId = message.staticAccounts[instruction.programAddressIndex]
    const data = instruction.data
    if (programId !== computeBudgetProgramId || data === undefined || data.length === 0) {
      otherInstructions += 1n
      continue
    }
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
    // SetComputeUnitLimit: [2, u32 LE]; SetComputeUnitPrice: [3, u64 LE].
    if (data[0] === 2 && data.length >= 5) computeUnitLimit = BigInt(view.getUint32(1, true))
    if (data[0] === 3 && data.length >= 9) microLamportsPerUnit = view.getBigUint64(1, true)
  }
  const units = computeUnitLimit ?? otherInstructions * defaultComputeUnitsPerInstruction
  const limit = units > maxComputeUnits ? maxComputeUnits : units
  const priorityFeeLamports =
    (microLamportsPerUnit * limit + microLamportsPerLamport - 1n) / microLamportsPerLamport
  const signatureFeeLamports = BigInt(message.header.numSignerAccounts) * lamportsPerSignature
  return {
    feeLamports: signatureFeeLamports + priorityFeeLamports,
    signatureFeeLamports,
    priorityFeeLamports,
  }
}
