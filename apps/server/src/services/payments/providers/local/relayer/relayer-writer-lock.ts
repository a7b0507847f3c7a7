import type { Database } from '@quicklinks/runtime/db/create-database-client'
import pg from 'pg'
import { keccak256, stringToHex } from 'viem'

/**
 * The right to send transactions from one relayer key. Two processes signing with one key would
 * race for nonces and could each fill the same deposit between their database reads, so only the
 * holder of this lock writes (scans, fills, settles, refunds); the others wait and retry.
 */
export type RelayerWriterLock = {
  /**
   * Takes the lock when it is free, or checks that this instance still holds it. Resolves true
   * when this instance may write now; false when another holds it or after `release`. Throws on
   * database errors (the caller's round fails and retries).
   */
  acquire(): Promise<boolean>
  /** Gives the lock up (after the last round); safe to call twice. */
  release(): Promise<void>
}

/** Holders of in-process locks, per database client (PGlite) and lock key. */
const inProcessHolders = new WeakMap<object, Map<string, symbol>>()

/**
 * The writer lock of a relayer key on a database. On Postgres it is a session advisory lock
 * (`pg_try_advisory_lock`) held on a dedicated pooled connection for as long as this instance
 * relays, so it ends with the process or its connection; the connection is checked each round.
 * PGlite is a single in-process database whose one session would grant every caller the advisory
 * lock, so there the lock is an in-process registry keyed by the PGlite instance: two apps on one
 * PGlite still get one writer. Never throws.
 */
export function createRelayerWriterLock(db: Database, relayerAddress: string): RelayerWriterLock {
  const name = `quicklinks:relayer:${relayerAddress.toLowerCase()}`
  const driver = (db as { $client?: unknown }).$client
  if (driver instanceof pg.Pool) return createAdvisoryLock(driver, name)
  return createInProcessLock(typeof driver === 'object' && driver !== null ? driver : db, name)
}

/** One checkout of a pooled connection, handed back exactly once. */
type Checkout = { client: pg.PoolClient; isReturned: boolean; onError: (error: Error) => void }

function createAdvisoryLock(pool: pg.Pool, name: string): RelayerWriterLock {
  // pg_try_advisory_lock takes one bigint: the first 8 bytes of the name's hash, signed.
  const key = BigInt.asIntN(64, BigInt(keccak256(stringToHex(name)).slice(0, 18))).toString()
  let holder: Checkout | undefined
  let inFlight: Promise<boolean> | undefined
  let isReleased = false

  /** Hands a connection back: as is, or destroyed (`error`), which ends its session and so the lock. */
  const giveBack = (checkout: Checkout, error?: Error): void => {
    if (holder === checkout) holder = undefined
    if (checkout.isReturned) return
    checkout.isReturned = true
    checkout.client.off('error', checkout.onError)
    // A destroyed connection may still report its socket closing; that must not crash the process.
    if (error) checkout.client.on('error', () => undefined)
    checkout.client.release(error)
  }
  const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)))

  const tryAcquire = async (): Promise<boolean> => {
    if (isReleased) return false
    if (holder) {
      const checkout = holder
      try {
        await checkout.client.query('SELECT 1')
        return true
      } catch (error) {
        giveBack(checkout, asError(error))
        return false
      }
    }
    const client = await pool.connect()
    // A checked-out connection's errors are ours to catch; losing it loses the lock.
    const checkout: Checkout = { client, isReturned: false, onError: (error) => giveBack(checkout, error) }
    client.on('error', checkout.onError)
    try {
      const result = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1::bigint) AS locked',
        [key],
      )
      const isLocked = result.rows[0]?.locked === true
      if (isLocked && !isReleased && !checkout.isReturned) {
        holder = checkout
        return true
      }
      if (isLocked) await client.query('SELECT pg_advisory_unlock($1::bigint)', [key])
      giveBack(checkout)
      return false
    } catch (error) {
      giveBack(checkout, asError(error))
      throw error
    }
  }

  return {
    acquire: () => {
      inFlight ??= tryAcquire().finally(() => {
        inFlight = undefined
      })
      return inFlight
    },
    release: async () => {
      isReleased = true
      await inFlight?.catch(() => undefined)
      const checkout = holder
      if (!checkout) return
      holder = undefined
      try {
        await checkout.client.query('SELECT pg_advisory_unlock($1::bigint)', [key])
        giveBack(checkout)
      } catch (error) {
        giveBack(checkout, asError(error))
      }
    },
  }
}

function createInProcessLock(database: object, name: string): RelayerWriterLock {
  const token = Symbol(name)
  let isReleased = false
  const getHolders = (): Map<string, symbol> => {
    let holders = inProcessHolders.get(database)
    if (!holders) {
      holders = new Map()
      inProcessHolders.set(database, holders)
    }
    return holders
  }
  return {
    acquire: async () => {
      if (isReleased) return false
      const holders = getHolders()
      const current = holders.get(name)
      if (current === undefined) holders.set(name, token)
      return (current ?? token) === token
    },
    release: async () => {
      isReleased = true
      const holders = getHolders()
      if (holders.get(name) === token) holders.delete(name)
    },
  }
}
