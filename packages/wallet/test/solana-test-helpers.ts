// Test aids for the Solana SDK tests: a System transfer built by hand (the SDK itself does not
// depend on @solana-program/system) and a random blockhash.
import { randomBytes } from 'node:crypto'
import {
  AccountRole,
  type Address,
  appendTransactionMessageInstruction,
  type Blockhash,
  blockhash,
  createTransactionMessage,
  getBase58Decoder,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type TransactionSigner,
} from '@solana/kit'

export const systemProgramAddress = '11111111111111111111111111111111' as Address

/** The System program's Transfer (instruction 2, u64 little-endian lamports), signed by `from`. */
export function transferInstruction(input: {
  from: TransactionSigner
  to: Address
  lamports: bigint
}): Instruction {
  const data = new Uint8Array(12)
  const view = new DataView(data.buffer)
  view.setUint32(0, 2, true)
  view.setBigUint64(4, input.lamports, true)
  return {
    programAddress: systemProgramAddress,
    accounts: [
      { address: input.from.address, role: AccountRole.WRITABLE_SIGNER, signer: input.from },
      { address: input.to, role: AccountRole.WRITABLE },
    ],
    data,
  } as Instruction
}

export function randomBlockhash(): Blockhash {
  return blockhash(getBase58Decoder().decode(randomBytes(32)))
}

/** A version-0 transfer message paid by `feePayer` (an address: no signer attached for it). */
export function sponsoredTransferMessage(input: {
  feePayer: Address
  from: TransactionSigner
  to: Address
  lamports: bigint
  blockhash?: Blockhash
}) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (message) => setTransactionMessageFeePayer(input.feePayer, message),
    (message) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: input.blockhash ?? randomBlockhash(), lastValidBlockHeight: 1000n },
        message,
      ),
    (message) => appendTransactionMessageInstruction(transferInstruction(input), message),
  )
}
