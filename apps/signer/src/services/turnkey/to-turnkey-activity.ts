import { signerActivities } from '@quicklinks/protocol/signer-activities'
import type { SignerActivity } from '../../db/signer-schema.ts'

/** Turnkey's timestamp: whole seconds and the nanoseconds past them, both as decimal strings. */
export type TurnkeyTimestamp = { seconds: string; nanos: string }

/** An activity in Turnkey's shape (`v1Activity`), as a stock `@turnkey/http` client reads it. */
export type TurnkeyActivity = {
  id: string
  organizationId: string
  status: SignerActivity['status']
  type: string
  intent: Record<string, unknown>
  result: Record<string, unknown>
  votes: never[]
  /** The SHA-256 of the stamped body that asked for it. */
  fingerprint: string
  canApprove: false
  canReject: false
  createdAt: TurnkeyTimestamp
  updatedAt: TurnkeyTimestamp
  failure?: { code: number; message: string }
}

/** Converts a Date to Turnkey's `{seconds, nanos}`. Pure. */
export function toTurnkeyTimestamp(date: Date): TurnkeyTimestamp {
  const ms = date.getTime()
  return { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1_000_000) }
}

/**
 * Splits our 0x signature into Turnkey's `signRawPayloadResult` `{r, s, v}` (hex without 0x):
 * an EVM signature r‖s‖v with v 27/28 gives v `00`/`01`; an ed25519 signature (64 bytes) gives its
 * two halves and v `00`, as Turnkey answers for ed25519 accounts.
 */
function toRawPayloadResult(signature: string): { r: string; s: string; v: string } {
  const hex = signature.replace(/^0x/, '')
  const r = hex.slice(0, 64)
  const s = hex.slice(64, 128)
  if (hex.length === 128) return { r, s, v: '00' }
  const v = Number.parseInt(hex.slice(128, 130), 16)
  return { r, s, v: (v >= 27 ? v - 27 : v).toString(16).padStart(2, '0') }
}

/** Per activity type: Turnkey's intent and result keys, and how a stored result maps to its result. */
const turnkeyShapes: Record<
  string,
  {
    intentKey: string
    resultKey: string
    toResult(result: Record<string, unknown>, request: Record<string, unknown>): Record<string, unknown>
  }
> = {
  [signerActivities.signRawPayload.type]: {
    intentKey: 'signRawPayloadIntentV2',
    resultKey: 'signRawPayloadResult',
    toResult: (result) => toRawPayloadResult(String(result.signature)),
  },
  [signerActivities.exportWallet.type]: {
    intentKey: 'exportWalletIntent',
    resultKey: 'exportWalletResult',
    toResult: (result, request) => ({ walletId: request.walletId, exportBundle: result.exportBundle }),
  },
  [signerActivities.exportWalletAccount.type]: {
    intentKey: 'exportWalletAccountIntent',
    resultKey: 'exportWalletAccountResult',
    toResult: (result, request) => ({ address: request.address, exportBundle: result.exportBundle }),
  },
}

/**
 * Maps an activity row to Turnkey's `v1Activity`: the request under the type's intent key
 * (`signRawPayloadIntentV2`, `exportWalletIntent`, `exportWalletAccountIntent`), a completed
 * result under its result key (`signRawPayloadResult {r, s, v}`, `exportWalletResult`,
 * `exportWalletAccountResult`), a failed one's message in `failure`. No votes: every activity here
 * is decided by its one stamp. Pure.
 */
export function toTurnkeyActivity(row: SignerActivity): TurnkeyActivity {
  const shape = turnkeyShapes[row.type]
  const isCompleted = row.status === 'ACTIVITY_STATUS_COMPLETED' && row.result !== null
  const failureMessage = row.status === 'ACTIVITY_STATUS_FAILED' ? row.result?.error : undefined
  return {
    id: row.id,
    organizationId: row.organizationId,
    status: row.status,
    type: row.type,
    intent: shape === undefined ? {} : { [shape.intentKey]: row.request },
    result:
      shape !== undefined && isCompleted && row.result !== null
        ? { [shape.resultKey]: shape.toResult(row.result, row.request) }
        : {},
    votes: [],
    fingerprint: row.bodyHash ?? '',
    canApprove: false,
    canReject: false,
    createdAt: toTurnkeyTimestamp(row.createdAt),
    updatedAt: toTurnkeyTimestamp(row.updatedAt),
    ...(typeof failureMessage === 'string' ? { failure: { code: 2, message: failureMessage } } : {}),
  }
}
