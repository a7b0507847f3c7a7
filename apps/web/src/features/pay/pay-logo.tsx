import { useState } from 'react'
import { classNames } from '../../ui/class-names'

/** True for an image the page may load: a path on this origin or an inline data URI, never a remote host. */
export function isLocalImage(uri: string | undefined): uri is string {
  if (uri === undefined || uri.length === 0) return false
  return uri.startsWith('data:image/') || (uri.startsWith('/') && !uri.startsWith('//'))
}

/**
 * A token, chain or wallet logo: the local image when there is one, else a monogram (docs/product.md#logos:
 * never a broken-image icon, no request leaves the origin). Decorative: the row's text names it.
 */
export function PayLogo({
  src,
  label,
  background,
  foreground,
  size = 'md',
}: {
  src?: string | undefined
  label: string
  background?: string
  foreground?: string
  size?: 'sm' | 'md'
}) {
  const [failed, setFailed] = useState(false)
  const box = size === 'sm' ? 'size-6 text-[10px]' : 'size-10 text-xs'
  if (isLocalImage(src) && !failed) {
    return (
      <img
        src={src}
        alt=""
        aria-hidden="true"
        className={classNames(box, 'shrink-0 rounded-full object-cover')}
        onError={() => setFailed(true)}
      />
    )
  }
  const initials =
    label
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 2)
      .toUpperCase() || '?'
  return (
    <span
      aria-hidden="true"
      className={classNames(
        box,
        'flex shrink-0 items-center justify-center rounded-full font-semibold',
        background === undefined && 'bg-accent-soft text-accent',
      )}
      style={background === undefined ? undefined : { background, color: foreground ?? '#ffffff' }}
    >
      {initials}
    </span>
  )
}
