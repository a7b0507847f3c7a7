import { Copy, FileText, MoreVertical, Pencil, Trash2 } from 'lucide-react'
import { DropdownMenu } from 'radix-ui'
import { classNames } from '../../ui/class-names'

/** The card's '⋮' menu: Copy Link, Create invoice, Edit and Delete. */
export function LinkMenu({
  alias,
  onCopy,
  onCreateInvoice,
  onEdit,
  onDelete,
  canChange,
}: {
  alias: string
  onCopy: () => void
  /** Opens the create-invoice dialog; disabled with Edit while the link waits for a write. */
  onCreateInvoice: () => void
  onEdit: () => void
  onDelete: () => void
  /** False while the link waits to be created or deleted: Edit and Delete are disabled. */
  canChange: boolean
}) {
  const itemClassName =
    'flex min-h-11 cursor-pointer select-none items-center gap-3 rounded-control px-3 text-sm outline-none data-[disabled]:cursor-not-allowed data-[highlighted]:bg-subtle data-[disabled]:opacity-55 [&_svg]:size-4'
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button
          type="button"
          aria-label={`More actions for ${alias}`}
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-control text-muted hover:bg-subtle hover:text-fg"
        >
          <MoreVertical aria-hidden="true" className="size-5" />
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-40 min-w-44 rounded-card border border-border bg-surface p-1 text-fg shadow-pop data-[state=open]:animate-fade-in"
        >
          <DropdownMenu.Item className={itemClassName} onSelect={onCopy}>
            <Copy aria-hidden="true" className="text-muted" />
            Copy Link
          </DropdownMenu.Item>
          <DropdownMenu.Item className={itemClassName} onSelect={onCreateInvoice} disabled={!canChange}>
            <FileText aria-hidden="true" className="text-muted" />
            Create invoice
          </DropdownMenu.Item>
          <DropdownMenu.Item className={itemClassName} onSelect={onEdit} disabled={!canChange}>
            <Pencil aria-hidden="true" className="text-muted" />
            Edit
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className={classNames(itemClassName, 'text-danger')}
            onSelect={onDelete}
            disabled={!canChange}
          >
            <Trash2 aria-hidden="true" />
            Delete
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
