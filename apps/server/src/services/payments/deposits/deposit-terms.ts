import type { DepositTerms } from '@quicklinks/contracts/deposit-address'
import type { Deposit } from '../../../db/schema.ts'

/** A stored deposit's terms as the contracts take them (numbers back to bigint). Pure. */
export function readDepositTerms(deposit: Pick<Deposit, 'terms'>): DepositTerms {
  const { terms } = deposit
  return {
    ...terms,
    destinationChainId: BigInt(terms.destinationChainId),
    expiresAt: BigInt(terms.expiresAt),
  }
}
