import { useEffect, useState } from 'react'

/**
 * Whole seconds from now until `deadline` (epoch ms), floored at 0; re-renders every second. Read
 * during render, so a new deadline shows in the very render that brings it (no stale frame).
 */
export function useSecondsLeft(deadline: number): number {
  const [, setTick] = useState(0)
  const secondsLeft = getSecondsLeft(deadline)
  useEffect(() => {
    if (getSecondsLeft(deadline) === 0) return
    const interval = setInterval(() => {
      setTick((tick) => tick + 1)
      if (getSecondsLeft(deadline) === 0) clearInterval(interval)
    }, 1000)
    return () => clearInterval(interval)
  }, [deadline])
  return secondsLeft
}

function getSecondsLeft(deadline: number): number {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000))
}

/** 75 → '1:15'. */
export function formatCountdown(seconds: number): string {
  const minutes = Math.floor(seconds / 60)
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`
}
