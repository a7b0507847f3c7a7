/** An error class whose instances carry a machine-readable `reason` (BundleError, KeystoreError). */
type ReasonedErrorClass = abstract new (...args: never[]) => Error & { reason: string }

/**
 * A test's `reasonOf(promise)`: 'ok' when the promise resolves, the `reason` of an `errorClass`
 * rejection, and `unexpected …` for any other rejection, so an assertion on a reason fails loudly
 * on a stray error instead of matching it.
 */
export function createReasonOf(
  errorClass: ReasonedErrorClass,
): (promise: Promise<unknown>) => Promise<string> {
  return async (promise) => {
    try {
      await promise
      return 'ok'
    } catch (error) {
      return error instanceof errorClass ? error.reason : `unexpected ${String(error)}`
    }
  }
}
