import { AppError } from '@quicklinks/core/app-error'
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { openSecret } from '../../crypto/keystore/open-secret.ts'
import { sealSecret } from '../../crypto/keystore/seal-secret.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerAuthMethods } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { productName } from '../mail/render-mail-layout.ts'

/** The only second-factor type (docs/signer.md#multi-factor: totp only). */
export const multiFactorTypes = ['totp'] as const
export type MultiFactorType = (typeof multiFactorTypes)[number]

/** RFC 6238 as every authenticator app reads an otpauth URI by default: SHA-1, 6 digits, 30 s. */
export const totpPeriodSeconds = 30
export const totpDigits = 6
/** Codes of the previous, current and next time step are accepted (clock drift of ±30 s). */
export const totpWindow = 1
/** A user may hold at most this many confirmed factors. */
export const maxTotpFactorsPerUser = 5
/** The purpose a factor's secret is sealed under (seal-secret.ts), bound to its user. */
const totpSecretPurpose = 'totp-secret'

/** What a factor row keeps in `signer_auth_methods.data`. */
type TotpFactorData = {
  name: string
  verified: boolean
  /** The last time step whose code was accepted: no code of that step or before works again. */
  lastUsedStep: number | null
  createdAt: string
  /** The base32 secret, sealed under the master key for this user (purpose `totp-secret`). */
  sealedSecret: string
}

/** A factor as the routes answer it (never its secret). */
export type MultiFactor = {
  multiFactorId: string
  multiFactorType: MultiFactorType
  name: string
  createdAt: string
}

/** A new, unconfirmed factor: its secret once, as text and as an otpauth URI for a QR code. */
export type TotpEnrolment = MultiFactor & { multiFactorSecret: string; multiFactorTotpUrl: string }

type TotpRow = { id: string; userId: string; data: TotpFactorData }

export function unsupportedMultiFactorTypeMessage(type: string): string {
  return `Unsupported MFA factor type: ${type}`
}

/**
 * Starts a TOTP enrolment: a fresh 160-bit secret, sealed under the master key for this user and
 * stored as an unconfirmed `totp` row of `signer_auth_methods` (any earlier unconfirmed one of the
 * user is dropped). The factor guards nothing until {@link verifyTotpFactor} confirms it with a
 * first code. `label` names the account in the authenticator app (the e-mail, else the phone).
 *
 * Fails by throwing VALIDATION_FAILED 'Unsupported MFA factor type: {type}' for any type but
 * totp, CONFLICT when the user already has {@link maxTotpFactorsPerUser} factors, or on a
 * database or keystore error.
 */
export async function createTotpFactor(
  context: SignerContext,
  input: { userId: string; multiFactorType: string; label: string },
): Promise<TotpEnrolment> {
  if (input.multiFactorType !== 'totp') {
    throw new AppError('VALIDATION_FAILED', {
      userMessage: unsupportedMultiFactorTypeMessage(input.multiFactorType),
      field: 'multiFactorType',
    })
  }
  const confirmed = await listTotpFactors(context.db, input.userId)
  if (confirmed.length >= maxTotpFactorsPerUser) {
    throw new AppError('CONFLICT', {
      userMessage: `You already have ${maxTotpFactorsPerUser} authenticator apps. Remove one before you add another.`,
    })
  }
  const secret = new Secret({ size: 20 })
  const id = crypto.randomUUID()
  const createdAt = new Date(context.now()).toISOString()
  const name = `totp-${context.now()}`
  const data: TotpFactorData = {
    name,
    verified: false,
    lastUsedStep: null,
    createdAt,
    sealedSecret: await sealSecret({
      keyEncryptionKey: context.keyring.masterKey,
      userId: input.userId,
      purpose: totpSecretPurpose,
      plaintext: new TextEncoder().encode(secret.base32),
    }),
  }
  await context.db.transaction(async (tx) => {
    await tx
      .delete(signerAuthMethods)
      .where(
        and(
          eq(signerAuthMethods.userId, input.userId),
          eq(signerAuthMethods.type, 'totp'),
          sql`coalesce((${signerAuthMethods.data}->>'verified')::boolean, false) = false`,
        ),
      )
    await tx
      .insert(signerAuthMethods)
      .values({ id, userId: input.userId, type: 'totp', identifier: id, data })
  })
  const totp = new TOTP({
    issuer: productName,
    label: input.label,
    secret,
    algorithm: 'SHA1',
    digits: totpDigits,
    period: totpPeriodSeconds,
  })
  return {
    multiFactorId: id,
    multiFactorType: 'totp',
    name,
    createdAt,
    multiFactorSecret: secret.base32,
    multiFactorTotpUrl: totp.toString(),
  }
}

/** The user's confirmed factors, oldest first. Rejects on a database error. */
export async function listTotpFactors(db: SignerDatabase, userId: string): Promise<MultiFactor[]> {
  const rows = await findTotpRows(db, userId)
  return rows.filter((row) => row.data.verified).map(toMultiFactor)
}

/**
 * Confirms an enrolment with a first code from the app (`checkTotpCode`: once per time step). A
 * factor already confirmed may be checked again the same way. Answers the confirmed factors.
 *
 * Fails by throwing NOT_FOUND for a factor id that is not the user's, OTP_INVALID (401) for a
 * wrong or already used code (not counted against a budget: the caller is signed in already), or
 * on a database or keystore error.
 */
export async function verifyTotpFactor(
  context: SignerContext,
  input: { userId: string; multiFactorId: string; code: string },
): Promise<MultiFactor[]> {
  const row = (await findTotpRows(context.db, input.userId, [input.multiFactorId]))[0]
  if (row === undefined) throw createFactorNotFoundError()
  const result = await checkTotpCode(context, row, input.code)
  if (result !== 'accepted') throw createTotpRefusedError(result)
  if (!row.data.verified) {
    await context.db
      .update(signerAuthMethods)
      .set({ data: sql`jsonb_set(${signerAuthMethods.data}, '{verified}', 'true'::jsonb)` })
      .where(eq(signerAuthMethods.id, row.id))
  }
  return listTotpFactors(context.db, input.userId)
}

/**
 * Removes the user's factors named by `multiFactorIds` (confirmed or not); ids that are not the
 * user's are ignored. Answers the confirmed factors left. Rejects on a database error.
 */
export async function deleteTotpFactors(
  db: SignerDatabase,
  input: { userId: string; multiFactorIds: string[] },
): Promise<MultiFactor[]> {
  if (input.multiFactorIds.length > 0) {
    await db
      .delete(signerAuthMethods)
      .where(
        and(
          eq(signerAuthMethods.userId, input.userId),
          eq(signerAuthMethods.type, 'totp'),
          inArray(signerAuthMethods.id, input.multiFactorIds),
        ),
      )
  }
  return listTotpFactors(db, input.userId)
}

/** The user's factor rows (all, or those of `ids`), oldest first. Rejects on a database error. */
export async function findTotpRows(db: SignerDatabase, userId: string, ids?: string[]): Promise<TotpRow[]> {
  const uuidIds = ids?.filter((id) => uuidPattern.test(id))
  if (uuidIds !== undefined && uuidIds.length === 0) return []
  const rows = await db
    .select({ id: signerAuthMethods.id, userId: signerAuthMethods.userId, data: signerAuthMethods.data })
    .from(signerAuthMethods)
    .where(
      and(
        eq(signerAuthMethods.userId, userId),
        eq(signerAuthMethods.type, 'totp'),
        ...(uuidIds === undefined ? [] : [inArray(signerAuthMethods.id, uuidIds)]),
      ),
    )
    .orderBy(asc(signerAuthMethods.createdAt), asc(signerAuthMethods.id))
  return rows.map((row) => ({ id: row.id, userId: row.userId, data: row.data as TotpFactorData }))
}

/** Whether the user has a confirmed factor, so a sign-in needs its code. Rejects on a database error. */
export async function hasConfirmedTotpFactor(db: SignerDatabase, userId: string): Promise<boolean> {
  return (await listTotpFactors(db, userId)).length > 0
}

export type TotpCheck = 'accepted' | 'wrong' | 'replayed'

/**
 * Checks a code against a factor at the signer's TOTP clock (the service clock; dev mode may move it): a code of the previous, current or next
 * time step is right; it is accepted only if its step is after the last accepted one, and that
 * step is recorded in the same conditional update, so a code works once even under concurrent
 * use (and no older code works after a newer one). Never counts failures itself.
 *
 * Rejects on a database error, or a KeystoreError when the sealed secret will not open.
 */
export async function checkTotpCode(context: SignerContext, row: TotpRow, code: string): Promise<TotpCheck> {
  const token = code.replace(/\s/g, '')
  if (!/^\d{6}$/.test(token)) return 'wrong'
  const secretBytes = await openSecret({
    keyEncryptionKey: context.keyring.masterKey,
    userId: row.userId,
    purpose: totpSecretPurpose,
    sealed: row.data.sealedSecret,
  })
  const secret = Secret.fromBase32(new TextDecoder().decode(secretBytes))
  secretBytes.fill(0)
  const timestamp = context.totpClock.now(row.userId)
  const delta = TOTP.validate({
    token,
    secret,
    algorithm: 'SHA1',
    digits: totpDigits,
    period: totpPeriodSeconds,
    timestamp,
    window: totpWindow,
  })
  if (delta === null) return 'wrong'
  const step = TOTP.counter({ period: totpPeriodSeconds, timestamp }) + delta
  const updated = await context.db
    .update(signerAuthMethods)
    .set({ data: sql`jsonb_set(${signerAuthMethods.data}, '{lastUsedStep}', to_jsonb(${step}::bigint))` })
    .where(
      and(
        eq(signerAuthMethods.id, row.id),
        sql`coalesce((${signerAuthMethods.data}->>'lastUsedStep')::bigint, -1) < ${step}`,
      ),
    )
    .returning({ id: signerAuthMethods.id })
  return updated.length === 1 ? 'accepted' : 'replayed'
}

/** OTP_INVALID (401) for a wrong or replayed authenticator code. */
export function createTotpRefusedError(result: Exclude<TotpCheck, 'accepted'>): AppError {
  return new AppError('OTP_INVALID', {
    message: `TOTP code refused: ${result}`,
    userMessage:
      result === 'replayed'
        ? 'That code was already used. Wait for the next code in your authenticator app.'
        : 'That code is not right. Enter the current code from your authenticator app.',
    details: { reason: result === 'replayed' ? 'TOTP_REPLAYED' : 'TOTP_INVALID' },
  })
}

function createFactorNotFoundError(): AppError {
  return new AppError('NOT_FOUND', { userMessage: 'That authenticator app is not on your account.' })
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function toMultiFactor(row: TotpRow): MultiFactor {
  return {
    multiFactorId: row.id,
    multiFactorType: 'totp',
    name: row.data.name,
    createdAt: row.data.createdAt,
  }
}
