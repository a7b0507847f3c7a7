import type { X402PaidResponse } from '@quicklinks/core/api/x402'
import type { PaymentRequirements } from '@x402/core/types'
import {
  createEIP712OfferReceiptIssuer,
  OFFER_RECEIPT,
  type OfferReceiptIssuer,
  type SignTypedDataFn,
} from '@x402/extensions/offer-receipt'
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier'
import type { ReceiptSigner } from '../../receipts/load-receipt-signer.ts'

/**
 * x402's offer-receipt extension (docs/decisions/0031) signed with the instance's receipt key
 * (docs/api.md#receipts), through `@x402/extensions`' EIP-712 issuer: the 402's offers, and the
 * receipt of a settled payment. The key id names the key as a did:pkh of its address.
 */
export function createX402OfferIssuer(signer: ReceiptSigner): OfferReceiptIssuer {
  const signTypedData: SignTypedDataFn = (params) =>
    // The issuer hands viem-shaped typed data with loose types; viem checks them at run time.
    signer.account.signTypedData(params as Parameters<typeof signer.account.signTypedData>[0])
  return createEIP712OfferReceiptIssuer(`did:pkh:eip155:1:${signer.account.address}`, signTypedData)
}

/**
 * The 402's `extensions`: payment-identifier declared (optional, so a retried request is
 * idempotent), and, with a receipt key, one signed offer per requirement valid until `validUntilMs`.
 */
export async function buildX402Extensions(options: {
  issuer: OfferReceiptIssuer | null
  resourceUrl: string
  requirements: readonly PaymentRequirements[]
  validForSeconds: number
}): Promise<Record<string, unknown>> {
  const extensions: Record<string, unknown> = {
    [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
  }
  const { issuer } = options
  if (issuer === null) return extensions
  const offers = await Promise.all(
    options.requirements.map((requirement, acceptIndex) =>
      issuer.issueOffer(options.resourceUrl, {
        acceptIndex,
        scheme: requirement.scheme,
        network: requirement.network,
        asset: requirement.asset,
        payTo: requirement.payTo,
        amount: requirement.amount,
        offerValiditySeconds: options.validForSeconds,
      }),
    ),
  )
  extensions[OFFER_RECEIPT] = { info: { offers } }
  return extensions
}

/** The settled payment's offer-receipt receipt, naming its transaction; null without a receipt key. */
export async function issueX402Receipt(
  issuer: OfferReceiptIssuer | null,
  settled: { resourceUrl: string; payer: string; network: string; transaction: string },
): Promise<X402PaidResponse['data']['offerReceipt']> {
  if (issuer === null) return null
  const receipt = await issuer.issueReceipt(
    settled.resourceUrl,
    settled.payer,
    settled.network,
    settled.transaction,
  )
  if (receipt.format !== 'eip712') return null
  return receipt
}
