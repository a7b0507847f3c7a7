import { useEffect, useRef } from 'react'

/** Shows a toast once per episode: again only after `key` went back to null. */
export function useToastOnce(key: string | null, show: (key: string) => void) {
  const shown = useRef<string | null>(null)
  useEffect(() => {
    if (key === null) {
      shown.current = null
      return
    }
    if (shown.current !== null) return
    shown.current = key
    show(key)
  }, [key, show])
}
