/** The e-mail and phone fields' classes: room on the left for the field's icon. */
export const contactInputClasses =
  'block min-h-11 w-full rounded-control border bg-surface py-2 pr-3 pl-10 text-base ' +
  'placeholder:text-muted disabled:cursor-not-allowed disabled:bg-subtle aria-[invalid=true]:border-danger sm:text-sm'
