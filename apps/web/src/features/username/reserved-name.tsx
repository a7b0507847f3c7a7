import { Clock } from 'lucide-react'
import { useEffect, useState } from 'react'
import { formatReserveCountdown, reserveCountdownStartSeconds } from './format-reserve-countdown'

/** The selected name with its reservation countdown, from 72:56:27 down, one tick a second. */
export function ReservedName({ name }: { name: string }) {
  const [secondsLeft, setSecondsLeft] = useState(reserveCountdownStartSeconds)
  useEffect(() => {
    const interval = setInterval(() => setSecondsLeft((seconds) => Math.max(0, seconds - 1)), 1000)
    return () => clearInterval(interval)
  }, [])
  return (
    <section
      aria-label="Selected username"
      className="mt-4 rounded-control border border-accent bg-accent-soft p-4"
    >
      <p className="break-all font-semibold text-lg">@{name}</p>
      <p className="mt-1 flex items-center gap-1.5 text-muted text-sm">
        <Clock aria-hidden="true" className="size-4" />
        Reserve expires in
        <span className="font-medium font-mono text-fg tabular-nums">
          {formatReserveCountdown(secondsLeft)}
        </span>
      </p>
    </section>
  )
}
