import type { SignerActivity } from '../../db/signer-schema.ts'

/** An activity as the API shows it (Turnkey's field names); `result` only when asked for. */
export type ActivityResponse = {
  id: string
  type: string
  status: SignerActivity['status']
  createdAt: string
  updatedAt: string
  result?: Record<string, unknown>
}

/** Maps an activity row to its API shape, with or without the result. Pure. */
export function toActivityResponse(row: SignerActivity, options: { withResult: boolean }): ActivityResponse {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(options.withResult && row.result !== null ? { result: row.result } : {}),
  }
}
