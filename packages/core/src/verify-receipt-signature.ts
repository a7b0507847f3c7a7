import { isAddressEqual, verifyTypedData } from 'viem'
import {
  receiptDomain,
  receiptPrimaryType,
  receiptTypes,
  reviveReceiptMessage,
  type SignedReceipt,
} from './api/receipts.ts'

/**
 * Whether a served receipt is what its `signer` signed: the signature is checked with viem's
 * `verifyTypedData` over our own domain and types (never the served ones, so a server cannot
 * change what the fields mean), after checking the served copies say the same. Resolves false for
 * a forged, edited or malformed receipt; never rejects for a bad signature.
 */
export async function verifyReceiptSignature(receipt: SignedReceipt): Promise<boolean> {
  if (!isSameDefinition(receipt)) return false
  try {
    return await verifyTypedData({
      address: receipt.signer as `0x${string}`,
      domain: receiptDomain,
      types: receiptTypes,
      primaryType: receiptPrimaryType,
      message: reviveReceiptMessage(receipt.message),
      signature: receipt.signature as `0x${string}`,
    })
  } catch {
    // A signature viem cannot parse is not a valid one.
    return false
  }
}

/** True when the receipt was signed by `expected` (any case); the signature is checked apart. */
export function isReceiptSigner(receipt: Pick<SignedReceipt, 'signer'>, expected: string): boolean {
  return isAddressEqual(receipt.signer as `0x${string}`, expected as `0x${string}`)
}

function isSameDefinition(receipt: SignedReceipt): boolean {
  return (
    receipt.domain.name === receiptDomain.name &&
    receipt.domain.version === receiptDomain.version &&
    JSON.stringify(receipt.types.Receipt) === JSON.stringify(receiptTypes.Receipt)
  )
}
