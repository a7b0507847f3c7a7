import { type Dispatch, useEffect } from 'react'
import { Dialog } from '../../ui/dialog'
import { LinkDetailsPage } from './link-details-page'
import type { LinkModalAction, LinkModalState } from './link-modal-state'
import { LinkReadyPage } from './link-ready-page'
import { LinkTypePage } from './link-type-page'

/** The success flag clears after 3 s (docs/product.md#link-manager). */
export const linkReadyFlagMs = 3000

export type LinkManagerModalProps = { state: LinkModalState; dispatch: Dispatch<LinkModalAction> }

/**
 * The link manager (docs/product.md#link-manager): type → details → ready, over the reducer in
 * link-modal-state.ts. Closing resets page, edit flag, draft and error.
 */
export function LinkManagerModal({ state, dispatch }: LinkManagerModalProps) {
  const { page } = state
  useEffect(() => {
    if (!state.isSuccess) return
    const timeout = setTimeout(() => dispatch({ type: 'clearSuccess' }), linkReadyFlagMs)
    return () => clearTimeout(timeout)
  }, [state.isSuccess, dispatch])

  return (
    <Dialog
      open={page.name !== 'closed'}
      onOpenChange={(open) => {
        if (!open) dispatch({ type: 'close' })
      }}
    >
      <LinkManagerPage state={state} dispatch={dispatch} />
    </Dialog>
  )
}

function LinkManagerPage({ state, dispatch }: LinkManagerModalProps) {
  const { page } = state
  switch (page.name) {
    case 'closed':
      return null
    case 'type':
      return <LinkTypePage typeId={state.typeId} dispatch={dispatch} />
    case 'details':
      return <LinkDetailsPage state={state} dispatch={dispatch} />
    case 'ready':
      return <LinkReadyPage slug={page.link.alias_slug} isEditing={state.isEditing} dispatch={dispatch} />
    default: {
      const unknownPage: never = page
      return unknownPage
    }
  }
}
