import { execFile } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { getFreePort } from './get-free-port.ts'

const run = promisify(execFile)

export type RunningPostgres = {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust auth, loopback only). */
  url: string
  /** Stops the server and deletes its data directory. */
  stop(): Promise<void>
}

/** Where Debian's PostgreSQL 15 server binaries live; POSTGRES_BIN overrides (as in scripts/test.mjs). */
export const postgresBinDir = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin'

/**
 * Starts a throw-away PostgreSQL server (initdb + pg_ctl) in a temp dir on a free loopback port.
 * Postgres refuses to run as root, so as root it runs as the `postgres` user via runuser.
 * Throws with the apt-get command when the binaries are missing: a missing Postgres must fail
 * the suite, never skip it.
 */
export async function startPostgres(): Promise<RunningPostgres> {
  const initdb = join(postgresBinDir, 'initdb')
  const pgCtl = join(postgresBinDir, 'pg_ctl')
  if (!existsSync(initdb) || !existsSync(pgCtl)) {
    throw new Error(
      `PostgreSQL 15 server binaries not found in ${postgresBinDir}. Install them with:\n\n` +
        '  apt-get update && apt-get install -y postgresql-15\n\n(or set POSTGRES_BIN to their directory)',
    )
  }
  const isRoot = process.getuid?.() === 0
  const root = mkdtempSync(join(tmpdir(), 'ql-postgres-'))
  const dataDir = join(root, 'data')
  const asServerUser = async (command: string, args: string[]) => {
    const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]
    return run(file, argv, { timeout: 120_000 })
  }
  if (isRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim())
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim())
    chownSync(root, uid, gid)
  }
  const port = await getFreePort()
  const logFile = join(root, 'postgres.log')
  try {
    await asServerUser(initdb, [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--no-sync',
    ])
    const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`
    await asServerUser(pgCtl, ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start'])
  } catch (error) {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''
    rmSync(root, { recursive: true, force: true })
    throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${log}`)
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      try {
        await asServerUser(pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    },
  }
}
