import {
  receiptResponseSchema,
  reviveReceiptMessage,
  type WellKnownReceipts,
  wellKnownReceiptsSchema,
} from '@quicklinks/core/api/receipts'
import { verifyReceiptOnChain } from '@quicklinks/core/verify-receipt-on-chain'
import { isReceiptSigner, verifyReceiptSignature } from '@quicklinks/core/verify-receipt-signature'
import { createPublicClient, http, isAddress, type PublicClient } from 'viem'

/** What `npm run verify-receipt` was asked. */
export type VerifyReceiptOptions = {
  receiptUrl: string
  /** An RPC for any chain without its own. */
  defaultRpcUrl: string | undefined
  /** RPCs by chain id (`--rpc 8453=https://…`). */
  rpcUrls: Map<number, string>
  /** The signer the caller expects (pinned out of band), if any. */
  signer: `0x${string}` | undefined
}

/** The verdict: the line to print, and whether it is "verified". */
export type ReceiptVerdict = { isVerified: boolean; line: string }

const usage =
  'usage: npm run verify-receipt -- <receipt-url> --rpc <rpc-url> [--rpc <chainId>=<url> ...] [--signer <address>]'

/** Parses the CLI's arguments; throws an Error carrying the usage line when they do not make sense. */
export function parseVerifyReceiptArguments(argv: readonly string[]): VerifyReceiptOptions {
  let receiptUrl: string | undefined
  let defaultRpcUrl: string | undefined
  const rpcUrls = new Map<number, string>()
  let signer: `0x${string}` | undefined
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? ''
    if (argument === '--rpc' || argument === '--signer') {
      const value = argv[index + 1]
      index += 1
      if (value === undefined) throw new Error(`${argument} needs a value; ${usage}`)
      if (argument === '--signer') {
        if (!isAddress(value, { strict: false })) throw new Error(`--signer ${value} is not an address`)
        signer = value
        continue
      }
      const match = /^(\d+)=(.+)$/.exec(value)
      if (match) rpcUrls.set(Number(match[1]), match[2] ?? '')
      else defaultRpcUrl = value
    } else if (receiptUrl === undefined && !argument.startsWith('--')) {
      receiptUrl = argument
    } else {
      throw new Error(`unexpected argument ${argument}; ${usage}`)
    }
  }
  if (receiptUrl === undefined) throw new Error(usage)
  if (defaultRpcUrl === undefined && rpcUrls.size === 0) throw new Error(`--rpc is required; ${usage}`)
  return { receiptUrl, defaultRpcUrl, rpcUrls, signer }
}

/**
 * Fetches the receipt and judges it: the EIP-712 signature (viem's verifyTypedData over our own
 * domain and types), the signer against the instance's /.well-known/quick-links-receipts.json and
 * the optional pinned `signer`, then the claims against the chains through the caller's RPCs only
 * (verifyReceiptOnChain). Rejects when the receipt or the well-known file cannot be fetched or
 * read, or an RPC fails.
 */
export async function checkReceiptUrl(options: VerifyReceiptOptions): Promise<ReceiptVerdict> {
  const receipt = receiptResponseSchema.parse(await fetchJson(options.receiptUrl)).data
  if (!(await verifyReceiptSignature(receipt))) {
    return { isVerified: false, line: `signature invalid: the receipt was not signed by ${receipt.signer}` }
  }
  const wellKnownUrl = new URL('/.well-known/quick-links-receipts.json', options.receiptUrl).toString()
  const wellKnown: WellKnownReceipts = wellKnownReceiptsSchema.parse(await fetchJson(wellKnownUrl))
  if (!isReceiptSigner(receipt, wellKnown.signer)) {
    return {
      isVerified: false,
      line: `signature invalid: signed by ${receipt.signer}, but ${new URL(wellKnownUrl).origin} signs with ${wellKnown.signer}`,
    }
  }
  if (options.signer !== undefined && !isReceiptSigner(receipt, options.signer)) {
    return {
      isVerified: false,
      line: `signature invalid: signed by ${receipt.signer}, not the expected signer ${options.signer}`,
    }
  }
  const clients = new Map<string, PublicClient>()
  const getClient = (chainId: number): PublicClient | undefined => {
    const url = options.rpcUrls.get(chainId) ?? options.defaultRpcUrl
    if (url === undefined) return undefined
    let client = clients.get(url)
    if (client === undefined) {
      client = createPublicClient({ transport: http(url, { retryCount: 1 }) })
      clients.set(url, client)
    }
    return client
  }
  const check = await verifyReceiptOnChain(reviveReceiptMessage(receipt.message), getClient)
  return check.isMatch
    ? { isVerified: true, line: 'verified' }
    : { isVerified: false, line: `does not match the chain: ${check.reason}` }
}

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(15_000),
  })
  if (!response.ok)
    throw new Error(`${url} answered ${response.status}: ${(await response.text()).slice(0, 200)}`)
  return response.json()
}
