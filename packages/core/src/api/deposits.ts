import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { decimalAmountSchema } from './invoices.ts'
import { nameSchema } from './name-schema.ts'

/**
 * Deposit addresses (docs/api.md#deposits, docs/decisions/0030): a payer without a dapp browser, or
 * paying from an exchange, sends one plain transfer to an address that is the same on every chain;
 * the server routes it to the link's receiver through the same route and verifier as a wallet
 * payment, or refunds it. POST /api/pay/links/{slug}/deposits makes one; GET /api/pay/deposits/{id}
 * reads it. The deposit id (a random UUID) is the capability to read it.
 */

/** How long a deposit address takes payments (seconds): 60 minutes, at most the invoice's own expiry. */
export const depositLifetimeSeconds = 60 * 60

const addressSchema = z
  .string()
  .check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address (0x and 40 hex digits)'))

/** POST /api/pay/links/{slug}/deposits's body. */
export const createDepositRequestSchema = z.object({
  /** An open invoice of this link: its remaining amount is asked for, and transfers add up to it. */
  invoiceId: z.optional(z.string().check(z.maxLength(64))),
  /** In the link's token, for a link without an amount (a link's or invoice's own amount wins). */
  amount: z.optional(decimalAmountSchema),
  /** Where refunds go; needed when paying from an exchange, whose sending address is not the payer's. */
  refundAddress: z.optional(addressSchema),
})

export type CreateDepositRequest = z.infer<typeof createDepositRequestSchema>

/** The path of POST /api/pay/links/{slug}/deposits. */
export const depositLinkParamsSchema = z.object({ slug: z.string().check(z.maxLength(256)) })

/** The path of GET /api/pay/deposits/{id}. */
export const depositIdParamsSchema = z.object({
  id: describeSchema(z.string().check(z.maxLength(64)), 'The deposit id (a UUID)'),
})

/** A token a deposit accepts on a chain, with the EIP-681 URI a phone wallet opens as a filled-in transfer. */
export const depositTokenSchema = z.object({
  /** Checksummed; the all-e address is the chain's native currency. */
  address: z.string(),
  symbol: z.string(),
  decimals: z.int(),
  /**
   * EIP-681: `ethereum:<token>@<chainId>/transfer?address=<deposit>&uint256=<atomic>` for an ERC-20,
   * `ethereum:<deposit>@<chainId>?value=<wei>` for native; the amount only when the deposit has one.
   */
  uri: z.string(),
  /** The amount the URI asks for, in the token's smallest units; null when the payer chooses. */
  amountUnits: z.nullable(z.string()),
})

export const depositChainSchema = z.object({
  chainId: z.int(),
  name: z.string(),
  tokens: z.array(depositTokenSchema),
})

/** A transfer into the deposit address and what became of it (docs/api.md#deposit-transfer-states). */
export const depositTransferSchema = nameSchema(
  z.object({
    chainId: z.int(),
    token: z.string(),
    amount: z.string(),
    txHash: z.nullable(z.string()),
    /** dropped: it left the chain in a reorg before it was routed (picked up again if it is mined again). */
    state: z.enum(['detected', 'routing', 'routed', 'refunding', 'refunded', 'failed', 'dropped']),
    /** Where it came from, when the chain says. */
    sender: z.nullable(z.string()),
    /**
     * Where a refund of it goes: the deposit's refund address, else the address its sender named
     * (POST /api/pay/deposits/{id}/refund-address), else its sender.
     */
    refundTo: z.nullable(z.string()),
    /** The payment's route intent: its status page is /pay/status/{intentId}. */
    intentId: z.nullable(z.string()),
    /** The forward or refund transaction. */
    actionTxHash: z.nullable(z.string()),
    /** Gas the operator paid to deploy the forwarder and move the funds, in wei of the chain's native currency. */
    gasCostWei: z.nullable(z.string()),
    /** Why it failed or was dropped. */
    error: z.nullable(z.string()),
    /** Why a detected transfer waits (less than a fixed amount so far, the refund waits for expiry). */
    note: z.nullable(z.string()),
  }),
  'DepositTransfer',
)

export const depositSchema = nameSchema(
  z.object({
    id: z.string(),
    /** The same address on every chain listed. */
    address: z.string(),
    expiresAt: z.string(),
    /** In the link's token (decimal string), when the link or invoice has an amount or the payer named one. */
    amount: z.optional(z.string()),
    /** The link's token: what `amount` is in and what the receiver gets, on the link's chain. */
    linkToken: z.object({
      chainId: z.number(),
      address: z.string(),
      symbol: z.string(),
      decimals: z.number(),
    }),
    invoiceId: z.nullable(z.string()),
    refundAddress: z.nullable(z.string()),
    /** open until expiresAt, then expired (late transfers are refunded). */
    state: z.enum(['open', 'expired']),
    chains: z.array(depositChainSchema),
    transfers: z.array(depositTransferSchema),
  }),
  'Deposit',
)

export const depositResponseSchema = z.object({ data: depositSchema })

export type DepositResponse = z.infer<typeof depositSchema>
export type DepositTransferResponse = z.infer<typeof depositTransferSchema>

/** How far ahead a refund-address message may expire (seconds): a signature is short-lived. */
export const refundAddressMessageMaxSeconds = 60 * 60

/** What the sender signs to name another refund address: the deposit, the new address, an expiry. */
export type RefundAddressMessage = {
  depositId: string
  /** Checksummed or not: the message names it checksummed. */
  refundAddress: `0x${string}`
  /** ISO time after which the server refuses the message. */
  expiresAt: string
}

/**
 * The EIP-191 (personal_sign) text of a refund-address change, built the same way by the status
 * page (to sign) and the server (to verify): the deposit id binds it to one deposit, the expiry to
 * one hour at most. Pure; `checksum` writes the address as the wallet shows it (viem's getAddress).
 */
export function buildRefundAddressMessage(
  message: RefundAddressMessage,
  checksum: (address: `0x${string}`) => string,
): string {
  return [
    'Quick Links: send my deposit refund to another address',
    '',
    `Deposit: ${message.depositId.toLowerCase()}`,
    `Refund address: ${checksum(message.refundAddress)}`,
    `Expires: ${message.expiresAt}`,
  ].join('\n')
}

/** POST /api/pay/deposits/{id}/refund-address's body (docs/api.md#deposit-refund-address). */
export const refundAddressRequestSchema = z.object({
  /** The new refund address. */
  refundAddress: addressSchema,
  /** The address that signed: a sender of a transfer into the deposit. */
  signer: addressSchema,
  /** The message's expiry, as signed (ISO 8601). */
  expiresAt: z.iso.datetime(),
  /** The personal_sign signature (65 bytes, or an ERC-1271 / ERC-6492 smart wallet's). */
  signature: z.string().check(z.regex(/^0x[0-9a-fA-F]+$/, 'must be hex'), z.maxLength(20_000)),
})

export type RefundAddressRequest = z.infer<typeof refundAddressRequestSchema>
