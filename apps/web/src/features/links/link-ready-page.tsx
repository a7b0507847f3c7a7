import { CircleCheck } from 'lucide-react'
import { type Dispatch, useEffect } from 'react'
import { Button } from '../../ui/button'
import { DialogDescription, DialogTitle } from '../../ui/dialog'
import { CopyLinkField } from './copy-link-field'
import { fireConfetti } from './fire-confetti'
import { buildPublicLinkUrl } from './link'
import type { LinkModalAction } from './link-modal-state'

/**
 * The page after a save: confetti, 'Your Link is Ready to Share' (or 'Link updated!'), the link,
 * Back to its details (now editing it) and Done.
 */
export function LinkReadyPage({
  slug,
  isEditing,
  dispatch,
}: {
  slug: string
  isEditing: boolean
  dispatch: Dispatch<LinkModalAction>
}) {
  useEffect(() => fireConfetti(), [])
  const url = buildPublicLinkUrl(slug)
  return (
    <div className="flex flex-col items-center text-center">
      <span className="mt-2 flex size-16 items-center justify-center rounded-full bg-success-soft text-success">
        <CircleCheck aria-hidden="true" className="size-9" />
      </span>
      <DialogTitle className="mt-5 font-semibold text-xl tracking-tight">
        {isEditing ? 'Link updated!' : 'Your Link is Ready to Share'}
      </DialogTitle>
      <DialogDescription>Anyone with this link can pay you.</DialogDescription>
      <CopyLinkField url={url} className="mt-6 w-full" />
      <div className="mt-6 grid w-full grid-cols-2 gap-3">
        <Button variant="secondary" onClick={() => dispatch({ type: 'back' })}>
          Back
        </Button>
        <Button onClick={() => dispatch({ type: 'close' })}>Done</Button>
      </div>
    </div>
  )
}
