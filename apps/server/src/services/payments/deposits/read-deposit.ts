import type { DepositResponse } from '@quicklinks/core/api/deposits'
import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { eq } from 'drizzle-orm'
import { links } from '../../../db/schema.ts'
import { getLinkTokenOrThrow } from '../../links/get-link-token-or-throw.ts'
import type { RoutingProvider } from '../route/routing-provider.ts'
import { listDepositTransfers, readDeposit } from './deposits-repository.ts'
import type { DepositSetup } from './get-deposit-setup.ts'
import { toDepositResponse } from './to-deposit-response.ts'

/**
 * A deposit with its transfers and what became of each (docs/api.md#deposits-read). The id is the
 * capability. Throws AppError NOT_FOUND for an unknown id or a deleted link.
 */
export async function readDepositOrThrow(
  context: { db: Database; provider: RoutingProvider; setup: DepositSetup; nowMs: number },
  id: string,
): Promise<DepositResponse> {
  const { db, provider, setup, nowMs } = context
  const deposit = await readDeposit(db, id)
  const [link] = deposit ? await db.select().from(links).where(eq(links.id, deposit.linkId)).limit(1) : []
  if (!deposit || !link) {
    throw new AppError('NOT_FOUND', {
      message: `No deposit ${id}`,
      userMessage: 'This deposit does not exist.',
    })
  }
  const linkToken = await getLinkTokenOrThrow(provider, link)
  const transfers = await listDepositTransfers(db, deposit.id)
  return toDepositResponse({ deposit, transfers, setup, tokens: await provider.tokens(), linkToken, nowMs })
}
