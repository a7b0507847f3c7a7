import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import { adoptThrowawayProcess, findExecutable } from '@quicklinks/runtime/test/throwaway-process'

export type RunningHaproxy = {
  /** http://127.0.0.1:<port>, the load balancer's front. */
  url: string
  /** Stops HAProxy and deletes its directory; idempotent. */
  stop(): Promise<void>
}

/**
 * The configuration an operator would put in front of N app instances (README "Running in
 * production"): round robin, a `GET /ready` probe every second (three failures in a row take an
 * instance out, two successes put it back; 5 s to answer), a request whose connection failed retried on another instance
 * (`retry-on conn-failure` with `option redispatch`: the request never reached the app, so a POST
 * is safe to resend), and the client's address passed on in X-Forwarded-For (TRUST_PROXY=1).
 */
export function buildHaproxyConfig(frontPort: number, backends: readonly number[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // /ready asks the database and every chain: a busy instance may take a few seconds to answer.
    '  timeout check 5s',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure',
    '  option forwardfor',
    'frontend front',
    `  bind 127.0.0.1:${frontPort}`,
    '  default_backend app',
    'backend app',
    '  balance roundrobin',
    '  option httpchk GET /ready',
    '  http-check expect status 200',
    '  default-server inter 1s fall 3 rise 2',
    ...backends.map((port, index) => `  server app${index + 1} 127.0.0.1:${port} check`),
    '',
  ].join('\n')
}

/**
 * Starts a real HAProxy on a free loopback port in front of the given app ports. Throws with the
 * apt-get command when it is not installed: a missing HAProxy must fail the suite, never skip it.
 */
export async function startHaproxy(backends: readonly number[]): Promise<RunningHaproxy> {
  const binary = findExecutable('haproxy', process.env.HAPROXY_BIN, ['/usr/sbin/haproxy'])
  if (binary === undefined) {
    throw new Error(
      'haproxy not found. Install it with:\n\n  apt-get update && apt-get install -y haproxy\n\n' +
        '(or set HAPROXY_BIN to its path)',
    )
  }
  const directory = mkdtempSync(join(tmpdir(), 'ql-haproxy-'))
  const port = await getFreePort()
  const configFile = join(directory, 'haproxy.cfg')
  writeFileSync(configFile, buildHaproxyConfig(port, backends))
  // -db: stay in the foreground, so it ends with its parent's kill.
  const child = spawn(binary, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000)
  }
  child.stdout?.on('data', append)
  child.stderr?.on('data', append)
  const stop = await adoptThrowawayProcess(
    child,
    directory,
    waitForPort(child, port, 10_000, () => output),
  )
  return {
    url: `http://127.0.0.1:${port}`,
    stop,
  }
}

/** Resolves once something accepts connections on the port; rejects if the process exits first. */
async function waitForPort(child: ChildProcess, port: number, timeoutMs: number, output: () => string) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${output()}`)
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (isOpen) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`haproxy did not listen on ${port} within ${timeoutMs} ms:\n${output()}`)
}
