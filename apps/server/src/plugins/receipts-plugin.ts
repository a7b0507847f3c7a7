import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { loadReceiptSigner, type ReceiptSigner } from '../services/receipts/load-receipt-signer.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The instance's receipt key (docs/api.md#receipts), or null when none is configured (503). */
    receiptSigner: ReceiptSigner | null
  }
}

const plugin: FastifyPluginAsync = async (app) => {
  const signer = await loadReceiptSigner(app.config)
  if (signer === undefined) {
    // A self-hoster upgrading without the key keeps taking payments; only receipts wait for it.
    app.log.warn('No RECEIPT_SIGNING_KEY: payment receipts answer 503 until one is set')
  }
  app.decorate('receiptSigner', signer ?? null)
}

/** Decorates `app.receiptSigner` from the config (RECEIPT_SIGNING_KEY, or the dev key file). */
export const receiptsPlugin = fp(plugin, { name: 'receipts', fastify: '5.x', dependencies: ['config'] })
