import type { x402Facilitator } from '@x402/core/facilitator'
import { type FacilitatorClient, HTTPFacilitatorClient } from '@x402/core/server'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { createInProcessFacilitatorClient } from '../services/x402/create-in-process-facilitator-client.ts'
import { createX402Facilitator } from '../services/x402/create-x402-facilitator.ts'
import { readX402SetupOrThrow, type X402Setup } from '../services/x402/read-x402-setup.ts'
import { createX402Settler } from '../services/x402/settlements/create-x402-settler.ts'
import { sendDueX402Settlements } from '../services/x402/settlements/send-due-x402-settlements.ts'

/** x402 in this app (docs/decisions/0031): our facilitator, and the client the paid resources use. */
export type X402Services = {
  /**
   * Our own facilitator (`@x402/core`'s x402Facilitator, `@x402/evm`'s exact scheme per chain,
   * settling through the relayer), built once per deployment. Rejects with AppError
   * SERVICE_UNAVAILABLE (503) when x402 cannot run here (no relayer key or no deployment).
   */
  facilitator(): Promise<x402Facilitator>
  /**
   * The `FacilitatorClient` a resource server (`x402ResourceServer`) verifies and settles with:
   * `@x402/core`'s HTTPFacilitatorClient at X402_FACILITATOR_URL when it is set, else our own
   * facilitator in-process (no HTTP). Rejects like `facilitator()` in the in-process case.
   */
  facilitatorClient(): Promise<FacilitatorClient>
}

declare module 'fastify' {
  interface FastifyInstance {
    /** x402's facilitator and the facilitator client of the paid resources (docs/decisions/0031). */
    x402: X402Services
  }
}

const plugin: FastifyPluginAsync<{ now?: () => number }> = async (app, options) => {
  let built: { key: string; facilitator: x402Facilitator; client: FacilitatorClient } | undefined
  const external = app.config.x402FacilitatorUrl
    ? new HTTPFacilitatorClient({ url: app.config.x402FacilitatorUrl })
    : undefined

  const build = async () => {
    const setup = await readX402SetupOrThrow(app.config)
    const hub = app.relayerHub
    const key = describeSetup(setup)
    if (built?.key === key) return built
    // readX402SetupOrThrow has a relayer key, so the hub exists; the guard keeps the types honest.
    if (!hub) throw new Error('x402 set up without the relayer hub')
    const settler = createX402Settler({ db: app.db, hub, ...(options.now ? { now: options.now } : {}) })
    const facilitator = createX402Facilitator(setup, settler)
    built = { key, facilitator, client: createInProcessFacilitatorClient(facilitator) }
    return built
  }

  // The relayer key's writer sends what instances that are not the writer queued, and what a
  // writer that stopped between writing a settlement down and sending it left (docs/decisions/0031).
  app.relayerHub?.addWriterTask((chain) =>
    sendDueX402Settlements({ db: app.db, chain, logger: app.log, now: options.now ?? Date.now }).catch(
      (error) =>
        app.log.warn(
          { err: error, chainId: chain.deployment.chainId },
          'Relayer could not send x402 settlements',
        ),
    ),
  )

  app.decorate('x402', {
    facilitator: async () => (await build()).facilitator,
    facilitatorClient: async () => external ?? (await build()).client,
  } satisfies X402Services)
}

/** What the facilitator is built from: a new deployment (a reset devnet) builds it again. */
function describeSetup(setup: X402Setup): string {
  return JSON.stringify([
    setup.relayer.address,
    setup.chains.map((chain) => [chain.chainId, chain.tokens.map((token) => token.address)]),
  ])
}

/** Decorates `app.x402`; needs the config, database and relayer plugins. */
export const x402Plugin = fp(plugin, {
  name: 'x402',
  fastify: '5.x',
  dependencies: ['config', 'database', 'relayer'],
})
