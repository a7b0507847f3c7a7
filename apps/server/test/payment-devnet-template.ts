import { cp, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startDevnet } from '@quicklinks/devnet/start-devnet'
import { inject } from 'vitest'
import type { TestProject } from 'vitest/node'
import { findFreePorts } from '../../../packages/devnet/test/find-free-ports.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** An empty folder of this run where the first payment devnet leaves its deployed chains. */
    paymentDevnetTemplateRoot: string
  }
}

/** The chains every payment devnet runs. */
export const paymentDevnetChainIds = [8453, 43114, 42161] as const

/**
 * A Vitest global setup part: an empty folder for the run's payment devnet template (made by the
 * first test file that needs it, so a run without devnet tests pays nothing); removed at the end.
 */
export async function providePaymentDevnetTemplateRoot(project: TestProject): Promise<() => Promise<void>> {
  const root = await mkdtemp(path.join(tmpdir(), 'ql-devnet-template-'))
  project.provide('paymentDevnetTemplateRoot', root)
  return () => rm(root, { recursive: true, force: true })
}

const waitForTemplateMs = 180_000

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  )
}

/** The run's template folder, or undefined outside a Vitest run (the benches) or without the setup. */
function readTemplateRoot(): string | undefined {
  try {
    return inject('paymentDevnetTemplateRoot')
  } catch {
    return undefined
  }
}

/** Deploys the chains once, without bundlers, and stops them: their saved state is the template. */
async function buildTemplate(root: string): Promise<void> {
  const building = path.join(root, 'building')
  const ports = await findFreePorts(paymentDevnetChainIds.length * 2)
  const devnet = await startDevnet({
    dataDir: building,
    bundlers: false,
    chains: paymentDevnetChainIds.map((chainId, index) => ({
      chainId,
      port: ports[index] ?? 0,
      bundlerPort: ports[index + paymentDevnetChainIds.length] ?? 0,
    })),
  })
  await devnet.stop()
  await rename(building, path.join(root, 'ready'))
}

/**
 * Fills `dataDir` with the run's deployed, stopped payment chains, so startDevnet restarts them
 * from their saved state (same contracts, addresses and balances as a fresh deployment) instead of
 * deploying again: a deployment is ~10 s of each devnet test file's start on a busy 2-core machine.
 * The first caller of the run (any worker; a lock folder decides) deploys the template; the others
 * wait for it. Answers false (the caller deploys as before) outside Vitest or when the template
 * could not be made.
 */
export async function copyPaymentDevnetTemplate(dataDir: string): Promise<boolean> {
  const root = readTemplateRoot()
  if (root === undefined) return false
  const ready = path.join(root, 'ready')
  const failed = path.join(root, 'failed')
  if (!(await exists(ready))) {
    const isBuilder = await mkdir(path.join(root, 'lock')).then(
      () => true,
      () => false,
    )
    if (isBuilder) {
      try {
        await buildTemplate(root)
      } catch (error) {
        await writeFile(failed, String(error))
        return false
      }
    } else {
      const deadline = Date.now() + waitForTemplateMs
      while (!(await exists(ready))) {
        if ((await exists(failed)) || Date.now() > deadline) return false
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }
  }
  await cp(ready, dataDir, { recursive: true })
  return true
}
