/**
 * The messages under a Settings section's content: why its list could not load, why the last
 * action failed (both alerts) and what the last action did (a status). Each shows only when set.
 */
export function SectionMessages({
  loadError,
  actionError,
  notice,
}: {
  loadError: string | null
  actionError: string | null
  notice: string | null
}) {
  return (
    <>
      {loadError === null ? null : (
        <p role="alert" className="mt-3 text-danger text-sm">
          {loadError}
        </p>
      )}
      {actionError === null ? null : (
        <p role="alert" className="mt-3 font-medium text-danger text-sm">
          {actionError}
        </p>
      )}
      {notice === null ? null : (
        <p role="status" className="mt-3 text-sm">
          {notice}
        </p>
      )}
    </>
  )
}
