/**
 * Asks `condition` every `intervalMs` until it answers true; throws naming `what` after
 * `timeoutMs`. An error thrown by the condition ends the wait at once (a process that exited), so
 * a condition that may only fail for now says false itself (see `answers200`).
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  intervalMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await condition()) return
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`)
}

/** Whether GET `url` answers 200 now; false when it answers otherwise or not at all. */
export function answers200(url: string): Promise<boolean> {
  return fetch(url).then(
    (response) => response.status === 200,
    () => false,
  )
}
