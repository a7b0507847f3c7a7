import { useCallback, useEffect, useRef, useState } from 'react'
import { type ApiClient, api } from '../../lib/api-client'
import { buildUsernameSuggestions } from './build-username-suggestions'
import { checkUsernameExists, usernameMinLength, usernamePattern } from './username-api'

const currentDate = (): Date => new Date()

/** Lookups wait 350 ms after the last keystroke (docs/product.md#username). */
export const usernameLookupDebounceMs = 350

export type UsernameAvailability =
  | { status: 'idle' }
  | { status: 'invalid'; name: string }
  | { status: 'checking'; name: string }
  | { status: 'available'; name: string }
  | { status: 'taken'; name: string; suggestions: string[] }
  | { status: 'error'; name: string }

export type UsernameAvailabilityControls = {
  availability: UsernameAvailability
  /** A keystroke: looks `name` up after the debounce (at once with `immediate`, on submit). */
  lookUp: (name: string, options?: { immediate?: boolean }) => void
}

/**
 * The availability of the name in the search box (docs/product.md#username): under 3 characters clears
 * everything; otherwise one lookup 350 ms after the last change. A newer lookup supersedes an older
 * one: the older request is aborted and its answer, should it still arrive, is ignored.
 */
export function useUsernameAvailability(
  client: ApiClient = api,
  now: () => Date = currentDate,
): UsernameAvailabilityControls {
  const [availability, setAvailability] = useState<UsernameAvailability>({ status: 'idle' })
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const inFlight = useRef<AbortController | undefined>(undefined)
  const latest = useRef(0)

  const cancelPending = useCallback(() => {
    clearTimeout(timer.current)
    inFlight.current?.abort()
    inFlight.current = undefined
  }, [])

  useEffect(() => cancelPending, [cancelPending])

  const run = useCallback(
    async (name: string, lookupId: number) => {
      const controller = new AbortController()
      inFlight.current = controller
      setAvailability({ status: 'checking', name })
      try {
        const exists = await checkUsernameExists(name, client, controller.signal)
        if (lookupId !== latest.current) return
        setAvailability(
          exists
            ? { status: 'taken', name, suggestions: buildUsernameSuggestions(name, now()) }
            : { status: 'available', name },
        )
      } catch {
        if (lookupId !== latest.current || controller.signal.aborted) return
        setAvailability({ status: 'error', name })
      } finally {
        if (inFlight.current === controller) inFlight.current = undefined
      }
    },
    [client, now],
  )

  const lookUp = useCallback(
    (rawName: string, { immediate = false }: { immediate?: boolean } = {}) => {
      cancelPending()
      latest.current += 1
      const lookupId = latest.current
      const name = rawName.trim().replace(/^@/, '')
      if (name.length < usernameMinLength) {
        setAvailability({ status: 'idle' })
        return
      }
      if (!usernamePattern.test(name)) {
        setAvailability({ status: 'invalid', name })
        return
      }
      if (immediate) {
        void run(name, lookupId)
        return
      }
      timer.current = setTimeout(() => void run(name, lookupId), usernameLookupDebounceMs)
    },
    [cancelPending, run],
  )

  return { availability, lookUp }
}
