import type { RouteResult } from '@quicklinks/core/api/routing'
import { useEffect, useRef, useState } from 'react'
import {
  buildRoute,
  createRouteScheduler,
  getRouteInputKey,
  type RouteInput,
  type RouteScheduler,
  type RouteState,
} from './route-builder'

/** The confirm step's countdown (docs/product.md#step-confirm). */
export const confirmCountdownSeconds = 60

/**
 * The confirm step's route (docs/product.md#route-state) and its 60 s countdown: while `isActive`, every new
 * input is built after the debounce (the previous request aborted); when the countdown reaches 0:00
 * the route is rebuilt and the countdown restarts. A route built for another input
 * than the current one reads as building, so a stale route is never paid.
 */
export function useRouteState(
  isActive: boolean,
  input: RouteInput | null,
  build: (input: RouteInput, signal: AbortSignal) => Promise<RouteResult> = buildRoute,
): { route: RouteState; secondsLeft: number } {
  const [route, setRoute] = useState<RouteState>({ status: 'idle' })
  const schedulerRef = useRef<RouteScheduler | null>(null)
  const inputRef = useRef(input)
  inputRef.current = input
  const buildRef = useRef(build)
  buildRef.current = build

  useEffect(() => {
    if (!isActive) return
    const scheduler = createRouteScheduler({
      build: (next, signal) => buildRef.current(next, signal),
      onState: setRoute,
    })
    schedulerRef.current = scheduler
    scheduler.update(inputRef.current)
    return () => {
      scheduler.dispose()
      schedulerRef.current = null
      setRoute({ status: 'idle' })
    }
  }, [isActive])

  const key = input === null ? null : getRouteInputKey(input)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the input, read from the ref
  useEffect(() => {
    schedulerRef.current?.update(inputRef.current)
  }, [key])

  const [secondsLeft, setSecondsLeft] = useState(confirmCountdownSeconds)
  useEffect(() => {
    if (!isActive) return
    setSecondsLeft(confirmCountdownSeconds)
    const interval = setInterval(() => setSecondsLeft((seconds) => seconds - 1), 1000)
    return () => clearInterval(interval)
  }, [isActive])
  useEffect(() => {
    if (!isActive || secondsLeft > 0) return
    schedulerRef.current?.rebuild()
    setSecondsLeft(confirmCountdownSeconds)
  }, [isActive, secondsLeft])

  const current: RouteState =
    route.status !== 'idle' && route.key !== key ? { status: 'building', key: key ?? '' } : route
  return { route: current, secondsLeft: Math.max(0, secondsLeft) }
}
