/** A field's error, announced (role alert) and named by `id` for the field's aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | null }) {
  if (message === null) return null
  return (
    <p id={id} role="alert" className="mt-2 text-danger text-sm">
      {message}
    </p>
  )
}
