import { CircleHelp } from 'lucide-react'
import { Tooltip } from 'radix-ui'
import type { ReactNode } from 'react'

/** A question-mark button named `label` that shows `children` in a tooltip. */
export function HelpTooltip({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Tooltip.Provider>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <button
            type="button"
            aria-label={label}
            className="inline-flex size-11 items-center justify-center rounded-control text-muted hover:bg-subtle hover:text-fg"
          >
            <CircleHelp aria-hidden="true" className="size-5" />
          </button>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content
            sideOffset={4}
            className="z-[60] max-w-64 rounded-control border border-border bg-surface px-3 py-2 text-fg text-sm shadow-pop"
          >
            {children}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  )
}
