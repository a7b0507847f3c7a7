/**
 * Settles as `work` does, or rejects with `onTimeout()` once `timeoutMs` have passed first; the
 * timer is cleared either way, so nothing keeps the process or the page busy afterwards. `work`
 * itself is not cancelled (pass it an AbortSignal for that).
 */
export function withTimeout<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(onTimeout()), timeoutMs)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}
