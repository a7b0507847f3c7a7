import { AppError } from '@quicklinks/core/app-error'
import { createValidationError } from '@quicklinks/core/parse-input-or-throw'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { type Address, getAddress, type Hex, isAddress } from 'viem'
import { parseSiweMessage, type SiweMessage, validateSiweMessage } from 'viem/siwe'
import { consumeSiweNonce } from './consume-siwe-nonce.ts'
import { type SiweSignatureVerifier, verifyEoaSignature } from './verify-eoa-signature.ts'

/** How far ahead of the server's clock `Issued At` may be (a device clock slightly fast). */
export const siweClockSkewMs = 2 * 60 * 1000

export type SiweLoginInput = { message: string; signature: Hex }

export type SiweLoginOptions = {
  /** The origin the browser sees (config.publicOrigin): its host is the only accepted domain. */
  publicOrigin: string
  now?: Date
  /** Default: plain EOA signatures (`verifyEoaSignature`); the app passes createSiweSignatureVerifier (smart accounts too). */
  verifySignature?: SiweSignatureVerifier
}

export type VerifiedSiweLogin = { address: Address; chainId: number }

/** The fields of the message's first lines, with how the 422 message names them. */
const prefixFields = [
  ['domain', 'the first line (domain)'],
  ['address', 'the address line'],
] as const satisfies readonly (readonly [keyof SiweMessage, string])[]

/** The required `Name: value` lines, in the order EIP-4361 fixes. */
const suffixFields = [
  ['uri', 'URI'],
  ['version', 'Version'],
  ['chainId', 'Chain ID'],
  ['nonce', 'Nonce'],
  ['issuedAt', 'Issued At'],
] as const satisfies readonly (readonly [keyof SiweMessage, string])[]

/** Names what keeps `message` from parsing, or undefined when every required field is there. */
function findMissingPart(message: string, parsed: Partial<SiweMessage>): string | undefined {
  for (const [field, name] of prefixFields) {
    if (parsed[field] === undefined || parsed[field] === '') return `${name} is missing`
  }
  if (suffixFields.every(([field]) => parsed[field] !== undefined && parsed[field] !== '')) return undefined
  // viem parses these lines as one block, so find the line that is absent to say which.
  const absent = suffixFields.find(([, name]) => !message.includes(`\n${name}: `))
  return absent === undefined
    ? 'the lines URI to Issued At are malformed or out of order'
    : `the ${absent[1]} line is missing`
}

const refused = (userMessage: string, message: string = userMessage) =>
  new AppError('UNAUTHORIZED', { message, userMessage })

/**
 * Checks a Sign-In with Ethereum (EIP-4361) login: the message parses, its nonce was handed out by
 * this server, is unexpired and unused (it is used up now, whatever follows), its domain and URI
 * are this server's public origin, its Issued At is not in the future, its Expiration Time and
 * Not Before hold, and the signature was made by the message's address. Resolves with the
 * checksummed address. Rejects with AppError VALIDATION_FAILED (field `message`) for a message
 * that is no EIP-4361 message, UNAUTHORIZED with a message saying which check failed otherwise.
 */
export async function verifySiweLoginOrThrow(
  db: Database,
  input: SiweLoginInput,
  options: SiweLoginOptions,
): Promise<VerifiedSiweLogin> {
  const now = options.now ?? new Date()
  const parsed = parseSiweMessage(input.message)
  const missing = findMissingPart(input.message, parsed)
  if (missing !== undefined) {
    throw createValidationError('message', `is not a Sign-In with Ethereum message (${missing})`)
  }
  if (parsed.version !== '1') throw createValidationError('message', 'has an unsupported Version (use 1)')
  const dates = { issuedAt: 'Issued At', expirationTime: 'Expiration Time', notBefore: 'Not Before' } as const
  for (const [field, line] of Object.entries(dates) as [keyof typeof dates, string][]) {
    const value = parsed[field]
    if (value !== undefined && Number.isNaN(value.getTime())) {
      throw createValidationError('message', `has an invalid ${line} (use an RFC 3339 date-time)`)
    }
  }
  if (parsed.address === undefined || !isAddress(parsed.address, { strict: false })) {
    throw createValidationError('message', 'has an invalid address')
  }
  const address = getAddress(parsed.address)
  const nonce = parsed.nonce ?? ''

  if (!(await consumeSiweNonce(db, nonce, now))) {
    throw refused(
      'This sign-in request has expired or was already used. Sign in again.',
      'Unknown, used or expired nonce',
    )
  }

  const origin = new URL(options.publicOrigin)
  const expectedScheme = origin.protocol.slice(0, -1)
  if (parsed.domain !== origin.host || (parsed.scheme !== undefined && parsed.scheme !== expectedScheme)) {
    throw refused(
      'This sign-in message was made for another site.',
      `Domain ${parsed.domain} is not ${origin.host}`,
    )
  }
  if (!isSameOrigin(parsed.uri ?? '', origin.origin)) {
    throw refused(
      'This sign-in message was made for another site.',
      `URI ${parsed.uri} is not on ${origin.origin}`,
    )
  }
  if (parsed.issuedAt !== undefined && parsed.issuedAt.getTime() > now.getTime() + siweClockSkewMs) {
    throw refused('This sign-in message is dated in the future. Check your device clock and try again.')
  }
  if (parsed.expirationTime !== undefined && parsed.expirationTime.getTime() <= now.getTime()) {
    throw refused('This sign-in message has expired. Sign in again.')
  }
  if (parsed.notBefore !== undefined && parsed.notBefore.getTime() > now.getTime()) {
    throw refused('This sign-in message is not valid yet. Try again in a moment.')
  }
  // viem's own EIP-4361 checks, on top of ours: nonce shape, version, lifetime, address.
  if (!validateSiweMessage({ message: parsed, domain: origin.host, nonce, time: now })) {
    throw refused('This sign-in message is not valid. Sign in again.', 'validateSiweMessage refused it')
  }

  const verifySignature = options.verifySignature ?? verifyEoaSignature
  const chainId = parsed.chainId ?? 0
  if (!(await verifySignature({ address, message: input.message, signature: input.signature, chainId }))) {
    throw refused(
      'The signature does not match the address in the sign-in message.',
      `Signature not made by ${address}`,
    )
  }
  return { address, chainId }
}

function isSameOrigin(uri: string, origin: string): boolean {
  try {
    return new URL(uri).origin === origin
  } catch {
    return false
  }
}
