import { buildContracts } from '../src/build-contracts.ts'

/** Vitest global setup: the typed contract modules must exist before any test imports them. */
export default async function setup(): Promise<void> {
  await buildContracts()
}
