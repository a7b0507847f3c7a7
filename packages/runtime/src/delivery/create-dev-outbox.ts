/** An in-memory list of delivered messages for development, newest first. */
export type DevOutbox<Message> = {
  /** Stores a message in front; the oldest one falls off once `limit` is reached. */
  add(message: Message): void
  /** A copy of the stored messages, newest first. */
  list(): Message[]
}

/** How many messages a dev outbox keeps unless told otherwise. */
export const defaultDevOutboxLimit = 200

/**
 * Creates the store behind the dev mail catcher and the dev SMS provider: memory only (a restart
 * empties it) and capped, so a long-running dev server cannot grow without bound. Throws a
 * RangeError for a limit below 1.
 */
export function createDevOutbox<Message>(limit: number = defaultDevOutboxLimit): DevOutbox<Message> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`Outbox limit must be a positive integer: ${limit}`)
  const messages: Message[] = []
  return {
    add(message) {
      messages.unshift(message)
      if (messages.length > limit) messages.length = limit
    },
    list() {
      return [...messages]
    },
  }
}
