import { type Dispatch, useId } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { DialogDescription, DialogTitle } from '../../ui/dialog'
import { HelpTooltip } from './help-tooltip'
import type { LinkModalAction } from './link-modal-state'
import { linkTypes, maxShownLinkTypes } from './link-types'

/** The link manager's first page in create mode, 'Receiving Method': one radio card per link type. */
export function LinkTypePage({
  typeId,
  dispatch,
}: {
  typeId: string | null
  dispatch: Dispatch<LinkModalAction>
}) {
  const descriptionId = useId()
  return (
    <>
      <div className="flex items-center gap-2 pr-10">
        <DialogTitle className="font-semibold text-xl tracking-tight">Receiving Method</DialogTitle>
        <HelpTooltip label="About receiving methods">
          The destination style decides where payments land: any chain and token you pick, or an Avalanche
          card top-up.
        </HelpTooltip>
      </div>
      <DialogDescription>
        <span id={descriptionId}>Pick a destination style.</span>
      </DialogDescription>
      <div role="radiogroup" aria-labelledby={descriptionId} className="mt-5 grid gap-3">
        {linkTypes.slice(0, maxShownLinkTypes).map((type) => {
          const isChosen = type.id === typeId
          return (
            // biome-ignore lint/a11y/useSemanticElements: a card-sized option; a native radio cannot hold this layout
            <button
              key={type.id}
              type="button"
              role="radio"
              aria-checked={isChosen}
              onClick={() => dispatch({ type: 'chooseType', typeId: type.id })}
              className={classNames(
                'flex min-h-16 w-full items-center gap-4 rounded-card border p-4 text-left transition-colors',
                isChosen ? 'border-accent bg-accent-soft' : 'border-border hover:bg-subtle',
              )}
            >
              <span
                aria-hidden="true"
                className="flex size-11 shrink-0 items-center justify-center rounded-full bg-subtle text-accent"
              >
                <type.icon className="size-5" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block font-medium">{type.title}</span>
                <span className="mt-0.5 block text-muted text-sm">{type.subtitle}</span>
              </span>
              <span
                aria-hidden="true"
                className={classNames(
                  'size-5 shrink-0 rounded-full border-2',
                  isChosen
                    ? 'border-accent bg-accent shadow-[inset_0_0_0_3px_var(--ql-surface)]'
                    : 'border-border',
                )}
              />
            </button>
          )
        })}
      </div>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => dispatch({ type: 'back' })}>
          Back
        </Button>
        <Button disabled={typeId === null} onClick={() => dispatch({ type: 'continue' })}>
          Continue
        </Button>
      </div>
    </>
  )
}
