import type { RoutingToken } from '@quicklinks/core/api/routing'
import { isSameTokenAddress } from '@quicklinks/core/native-token-address'
import type { Dispatch } from 'react'
import { getDraftSlug } from './get-draft-slug'
import type { LinkModalAction, LinkModalState } from './link-modal-state'
import { useCreateLink, useUpdateLink } from './link-queries'
import { isQueuedLinkWrite } from './links-api'
import { toDraftError } from './to-draft-error'

/**
 * The details page's save: creates the draft's link (refused with an alert when its token is not
 * on its chain) or updates the edited one, and reports 'saved' or 'failed' (the error next to the
 * field the server named) to the modal's reducer. A save queued offline closes the modal.
 */
export function useSaveLinkDraft(
  state: LinkModalState,
  dispatch: Dispatch<LinkModalAction>,
  allTokens: readonly RoutingToken[],
): () => Promise<void> {
  const createMutation = useCreateLink()
  const updateMutation = useUpdateLink()
  const { draft, isEditing } = state
  return async () => {
    if (!isEditing) {
      const onChain = allTokens.filter((token) => token.chainId === draft.chain_id)
      if (!onChain.some((token) => isSameTokenAddress(token.address, draft.token_address))) {
        window.alert('Selected token does not belong to the chosen chain.')
        return
      }
    }
    dispatch({ type: 'submit' })
    try {
      const link =
        isEditing && state.editingId !== null
          ? await updateMutation.mutateAsync({
              id: state.editingId,
              alias: draft.alias.trim(),
              alias_slug: getDraftSlug(draft),
              message: draft.message,
              amount: toAmountField(draft.amount),
              account_type: 'personal',
              enabled: draft.enabled,
              favorite: draft.favorite,
              notify_payments: draft.notify_payments,
              settings: '{}',
            })
          : await createMutation.mutateAsync({
              link_type: draft.link_type,
              alias: draft.alias,
              ...(draft.alias_slug === null ? {} : { alias_slug: draft.alias_slug }),
              receiver_address: draft.receiver_address,
              chain: draft.chain,
              chain_id: draft.chain_id ?? 0,
              token_name: draft.token_name,
              token_address: draft.token_address,
              message: draft.message,
              amount: toAmountField(draft.amount),
              account_type: 'personal',
              enabled: draft.enabled,
              favorite: draft.favorite,
              notify_payments: draft.notify_payments,
              settings: '{}',
              idempotency_key: draft.idempotency_key,
            })
      // Queued offline: the card on the dashboard says it is pending until it is replayed.
      if (isQueuedLinkWrite(link)) dispatch({ type: 'close' })
      else dispatch({ type: 'saved', link })
    } catch (caught) {
      dispatch({ type: 'failed', error: toDraftError(caught, isEditing ? 'Update failed' : 'Create failed') })
    }
  }
}

/** The typed amount as the API takes it: trimmed, null when empty (the payer chooses). */
function toAmountField(typed: string): string | null {
  const amount = typed.trim()
  return amount === '' ? null : amount
}
