import { useEffect, useState } from 'react'

/** Whole seconds from now until `deadline` (epoch ms), floored at 0; re-renders every second. */
export function useSecondsLeft(deadline: number): number {
  const compute = () => Math.max(0, Math.ceil((deadline - Date.now()) / 1000))
  const [secondsLeft, setSecondsLeft] = useState(compute)
  // biome-ignore lint/correctness/useExhaustiveDependencies: compute only reads deadline
  useEffect(() => {
    setSecondsLeft(compute())
    const interval = setInterval(() => {
      const next = compute()
      setSecondsLeft(next)
      if (next === 0) clearInterval(interval)
    }, 1000)
    return () => clearInterval(interval)
  }, [deadline])
  return secondsLeft
}

/** 75 → '1:15'. */
export function formatCountdown(seconds: number): string {
  const minutes = Math.floor(seconds / 60)
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`
}
