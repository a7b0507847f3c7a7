/**
 * What the frames server writes into a frame page's `<meta name="quicklinks-frame-config">`
 * (JSON, attribute-escaped), replacing the `__FRAME_CONFIG__` placeholder of the built HTML.
 */
export type FrameConfig = {
  /** The only origin whose messages the frame accepts: the app (PUBLIC_ORIGIN). */
  parentOrigin: string
  /** Export frame only: the service's export signing key (uncompressed hex) that bundles must be signed by. */
  exportSignerPublicKey?: string
}

export const frameConfigMetaName = 'quicklinks-frame-config'

/**
 * Reads the frame's configuration from its page. A page served without it (the placeholder left
 * in, as when the HTML is opened straight from disk) reads as `undefined`, and the frame then
 * accepts no messages at all.
 *
 * Never throws.
 */
export function readFrameConfig(document: Document): FrameConfig | undefined {
  const content = document.querySelector(`meta[name="${frameConfigMetaName}"]`)?.getAttribute('content')
  if (!content) return undefined
  try {
    const value: unknown = JSON.parse(content)
    if (typeof value !== 'object' || value === null) return undefined
    const { parentOrigin, exportSignerPublicKey } = value as Record<string, unknown>
    if (typeof parentOrigin !== 'string' || new URL(parentOrigin).origin !== parentOrigin) return undefined
    return {
      parentOrigin,
      ...(typeof exportSignerPublicKey === 'string' ? { exportSignerPublicKey } : {}),
    }
  } catch {
    return undefined
  }
}
