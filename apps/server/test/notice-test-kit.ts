import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { eq } from 'drizzle-orm'
import { routeIntents, users } from '../src/db/schema.ts'

let intentCounter = 0

/**
 * A verified payment into `linkId` written straight into route_intents as the tracker leaves a
 * final success (or, with `status`, another outcome): `amountUnits` of `toToken` on Base, final at
 * `finalAt`. Resolves its intent id.
 */
export async function insertFinalPayment(
  db: Database,
  input: {
    linkId: string
    toToken: string
    amountUnits: string
    finalAt: Date
    payer?: string
    status?: 'success' | 'failed'
  },
): Promise<string> {
  intentCounter += 1
  const unique = `${Date.now().toString(16)}${intentCounter.toString(16).padStart(6, '0')}`
  const id = `0x${unique.padStart(64, 'd')}`
  const status = input.status ?? 'success'
  await db.insert(routeIntents).values({
    id,
    provider: 'local',
    linkId: input.linkId,
    fromChainId: 8453,
    toChainId: 8453,
    fromToken: input.toToken.toLowerCase(),
    toToken: input.toToken.toLowerCase(),
    fromAmount: input.amountUnits,
    toAmount: input.amountUnits,
    toAmountMin: input.amountUnits,
    fromAddress: input.payer ?? `0x${'a1'.repeat(20)}`,
    toAddress: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    slippage: 1,
    transactionRequest: {},
    actions: [],
    sourceTxHash: `0x${unique.padStart(64, 'b')}`,
    destTxHash: status === 'success' ? `0x${unique.padStart(64, 'c')}` : null,
    status,
    statusRaw: status,
    toAmountWei: status === 'success' ? input.amountUnits : null,
    finalAt: input.finalAt,
    completedAt: input.finalAt,
    createdAt: new Date(input.finalAt.getTime() - 60_000),
    updatedAt: input.finalAt,
  })
  return id
}

/** Sets a user's stored e-mail and digest setting, as sign-in and PUT /api/users/notices would. */
export async function setNoticeUser(
  db: Database,
  userId: string,
  values: { email?: string | null; paymentDigest?: 'off' | 'daily' },
): Promise<void> {
  await db.update(users).set(values).where(eq(users.id, userId))
}
