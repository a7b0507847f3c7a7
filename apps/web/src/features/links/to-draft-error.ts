import { AppError } from '@quicklinks/core/app-error'
import type { DraftError, DraftFieldName } from './link-modal-state'

function mapServerField(field: string | undefined): DraftFieldName | null {
  switch (field) {
    case 'alias':
    case 'alias_slug':
      return 'alias'
    case 'receiver_address':
      return 'receiver_address'
    case 'chain':
    case 'chain_id':
      return 'chain'
    case 'token_address':
    case 'token_name':
      return 'token'
    case 'message':
      return 'message'
    default:
      return null
  }
}

/** Turns a failed save into what the details page shows next to the field it names. */
export function toDraftError(error: unknown, fallback: string): DraftError {
  if (!(error instanceof AppError)) return { field: null, message: fallback }
  const suggestion = error.details?.suggestion
  return {
    field: mapServerField(error.field),
    message: error.userMessage,
    ...(typeof suggestion === 'string' ? { suggestion } : {}),
  }
}
