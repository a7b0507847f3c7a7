import { buildContracts } from '@quicklinks/contracts/build-contracts'

/** Vitest global setup: the typed contract modules must exist before any test imports them. */
export default async function setup(): Promise<void> {
  await buildContracts()
}
