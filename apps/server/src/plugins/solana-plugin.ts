import type { KeyPairSigner } from '@solana/kit'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { DevnetSolana } from '../services/solana/devnet-solana.ts'
import { loadSolanaSponsor } from '../services/solana/load-solana-sponsor.ts'

/** Where POST /api/solana sends Solana's methods, and who sponsors fees (docs/api.md#solana). */
export type SolanaService = {
  /** The in-process LiteSVM (dev mode without SOLANA_RPC_URL, and tests), or none. */
  devnet: DevnetSolana | undefined
  /** SOLANA_RPC_URL, the node the methods are relayed to in production, or none. */
  rpcUrl: string | undefined
  /** The fee sponsor (SOLANA_SPONSOR_KEY, or the generated dev key), or none: then nothing is sponsored. */
  sponsor: KeyPairSigner | undefined
  /** Whether Solana is served at all: a LiteSVM or a node (else POST /api/solana answers 503). */
  isConfigured: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Solana, built once per app: one LiteSVM and one sponsor key for every route. */
    solana: SolanaService
  }
}

const plugin: FastifyPluginAsync = async (app) => {
  const rpcUrl = app.config.solanaRpcUrl
  const sponsor = await loadSolanaSponsor(app.config)
  // The LiteSVM only where no node is configured; the sponsor starts with SOL there. Imported
  // only then: production never loads its native binary.
  let devnet: DevnetSolana | undefined
  if (rpcUrl === undefined && app.config.solanaDevnet === true) {
    const { DevnetSolana } = await import('../services/solana/devnet-solana.ts')
    devnet = new DevnetSolana(sponsor === undefined ? [] : [sponsor.address])
  }
  app.decorate('solana', {
    devnet,
    rpcUrl,
    sponsor,
    isConfigured: devnet !== undefined || rpcUrl !== undefined,
  })
}

/** Decorates `app.solana` (the development LiteSVM and the fee sponsor); needs the config plugin. */
export const solanaPlugin = fp(plugin, { name: 'solana', fastify: '5.x', dependencies: ['config'] })
