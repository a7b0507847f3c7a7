import { connectFrame, createFrameElement, type FrameConnection } from './connect-frame.ts'
import { createWalletError } from './wallet-error.ts'

export const defaultExportIframeId = 'quicklinks-export-iframe'

/**
 * Puts the export frame into `container` (emptied first) and connects to it. The frame makes its
 * own fresh P-256 key; the connection's `publicKey` is the export's `targetPublicKey`. The iframe
 * fills the container's width; give the container a height (the frame shows up to 24 words).
 *
 * Fails with 'Cannot initialize iframe in non-browser environment', 'Iframe container cannot be
 * found' (no container), or the handshake errors of `connectFrame`.
 */
export async function openExportFrame(input: {
  container: HTMLElement | null | undefined
  frameUrl: string
  iframeElementId?: string
  /** The frame's colours; default: the container's computed `color-scheme` when it is light or dark. */
  theme?: 'light' | 'dark'
  timeoutMs?: number
}): Promise<FrameConnection> {
  if (typeof globalThis.document === 'undefined' && input.container?.ownerDocument === undefined) {
    throw createWalletError('Cannot initialize iframe in non-browser environment')
  }
  const container = input.container
  if (!container) throw createWalletError('Iframe container cannot be found')
  container.replaceChildren()
  const src = new URL(input.frameUrl)
  const theme = input.theme ?? readColorScheme(container)
  if (theme !== undefined) src.searchParams.set('theme', theme)
  const { iframe, loaded } = createFrameElement({
    document: container.ownerDocument,
    id: input.iframeElementId ?? defaultExportIframeId,
    src: src.href,
    title: 'Wallet export',
    allow: 'clipboard-write',
  })
  iframe.style.cssText = 'display:block;width:100%;height:100%;min-height:18rem;border:0;'
  container.appendChild(iframe)
  return connectFrame({
    iframe,
    frameOrigin: new URL(input.frameUrl).origin,
    loaded,
    ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
  })
}

/** The container's computed `color-scheme`, when it is exactly light or dark. Never throws. */
function readColorScheme(container: HTMLElement): 'light' | 'dark' | undefined {
  try {
    const scheme = container.ownerDocument.defaultView?.getComputedStyle(container).colorScheme
    return scheme === 'light' || scheme === 'dark' ? scheme : undefined
  } catch {
    return undefined
  }
}
