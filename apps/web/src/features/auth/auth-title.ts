import type { ComponentType, HTMLAttributes } from 'react'

/** The heading element a step renders its title with; the modal passes its Dialog.Title. */
export type AuthTitle = ComponentType<HTMLAttributes<HTMLHeadingElement>>
