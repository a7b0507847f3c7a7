import { createHash } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import type { StepUpProof } from '@quicklinks/protocol/step-up'
import { and, eq } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import { signerAuthMethods, signerSessionKeys } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { getAccountOrThrow } from '../accounts/get-account-or-throw.ts'
import { createJwtVerifier, type JwtVerifier } from '../auth/create-jwt-verifier.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { checkTotpCode, findTotpRows } from '../mfa/totp-factors.ts'
import { verifyOAuthIdToken } from '../oauth/verify-oauth-id-token.ts'
import { createContactLockedError, findContactLock, recordCodeFailure } from '../otp/record-code-failure.ts'
import { refuse } from '../refusals/step-up-refusal.ts'
import { createDatabaseReplayStore } from '../stamps/create-database-replay-store.ts'
import { readVerificationToken, spendVerificationToken } from '../verification/verification-token.ts'

/** A provider's id token older than this is no re-authentication (it may sit in a page's memory). */
export const maxStepUpIdTokenAgeMs = 5 * 60_000

/** How the call was stamped: by a session key, or by one of the user's passkeys (and whether it verified the user). */
export type StepUpStamp = { byPasskey: boolean; userVerified: boolean; publicKey: string }

/** How a verified stamped call was stamped (a passkey's `publicKey` is `passkey:{credentialId}`). */
export function toStepUpStamp(verified: { publicKey: string; userVerified: boolean }): StepUpStamp {
  return {
    byPasskey: verified.publicKey.startsWith('passkey:'),
    userVerified: verified.userVerified,
    publicKey: verified.publicKey,
  }
}

/**
 * Checks the step-up of a call that adds or removes a way in or changes who can sign
 * (docs/signer.md#step-up), before the change runs:
 * - re-authentication with a way in the account already has: the call stamped by one of its
 *   passkeys with user verification, or in `proof` a `verify-otp` token for its e-mail or phone
 *   (10 minutes), an id token of one of its linked providers or a custom JWT of its `jwt` sign-in
 *   issued in the last 5 minutes;
 *   skipped with `reauthDone` when the route's own parameters carry it (a contact change's code to
 *   the current contact);
 * - plus, when the account has a confirmed TOTP factor, its current code in `proof.totpCode` (a
 *   wrong code counts against the user's code budget, record-code-failure.ts).
 * The proof is spent only when everything checked out: a verification token works once, an id
 * token is kept in the replay store.
 *
 * Fails by rejecting with AppError FORBIDDEN (403, so a client does not end the session over
 * it), `details.reason` one of the table's codes: STEP_UP_REQUIRED, STEP_UP_REFUSED,
 * USER_VERIFICATION_REQUIRED, STEP_UP_TOTP_REQUIRED, STEP_UP_TOTP_REFUSED; RATE_LIMITED (429)
 * while the user's code budget is locked; UPSTREAM_FAILED when a provider's keys cannot be read.
 */
export async function requireStepUp(
  context: SignerContext,
  input: {
    userId: string
    stamp: StepUpStamp
    proof: StepUpProof | undefined
    reauthDone?: boolean
  },
): Promise<void> {
  const proof = input.proof ?? {}
  const spend =
    input.reauthDone === true || (input.stamp.byPasskey && input.stamp.userVerified)
      ? async () => {}
      : await checkReauthentication(context, input.userId, input.stamp, proof)
  await checkTotp(context, input.userId, proof.totpCode)
  await spend()
}

/** Checks the proof of a way in and returns how to spend it. */
async function checkReauthentication(
  context: SignerContext,
  userId: string,
  stamp: StepUpStamp,
  proof: StepUpProof,
): Promise<() => Promise<void>> {
  if (proof.verificationToken !== undefined) {
    const verified = await readVerificationToken(
      context.keyring.verificationTokenSecret,
      proof.verificationToken,
      context.now(),
    ).catch((error: unknown) => {
      throw refuse('STEP_UP_REFUSED', error)
    })
    const account = await getAccountOrThrow(context.db, userId)
    if (!isContactOf(account, verified.contact)) throw refuse('STEP_UP_REFUSED')
    return () =>
      spendVerificationToken(context.db, verified.otpId, context.now()).catch((error: unknown) => {
        throw refuse('STEP_UP_REFUSED', error)
      })
  }
  if (proof.oidcToken !== undefined) return checkIdToken(context, userId, proof)
  if (proof.jwt !== undefined) return checkCustomJwt(context, userId, proof.jwt, stamp.publicKey)
  // A passkey stamp without user verification proves only that the device is present.
  throw refuse(stamp.byPasskey ? 'USER_VERIFICATION_REQUIRED' : 'STEP_UP_REQUIRED')
}

/** A fresh id token of a provider identity linked to this user; spent in the replay store. */
async function checkIdToken(
  context: SignerContext,
  userId: string,
  proof: StepUpProof,
): Promise<() => Promise<void>> {
  const { oidcToken = '', providerName } = proof
  const directory = context.oauthDirectory
  if (providerName === undefined || directory === undefined) throw refuse('STEP_UP_REFUSED')
  const nowMs = context.now()
  const provider = await directory.get(providerName).catch((error: unknown) => {
    throw refuse('STEP_UP_REFUSED', error)
  })
  const verified = await verifyOAuthIdToken(provider, oidcToken, { nowMs }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'UPSTREAM_FAILED') throw error
    throw refuse('STEP_UP_REFUSED', error)
  })
  const issuedAtMs = (decodeJwt(oidcToken).iat ?? 0) * 1000
  const expiresAtMs = Math.max(verified.expiresAtMs, issuedAtMs + maxStepUpIdTokenAgeMs) + 60_000
  return checkFreshLinkedToken(context, {
    userId,
    method: { type: 'oauth', identifier: `${verified.issuer}|${verified.subject}` },
    token: oidcToken,
    issuedAtMs,
    replayKeyPrefix: 'step-up-id-token',
    expiresAtMs,
  })
}

/**
 * The part an id token and a custom JWT share once verified: issued in the last 5 minutes, naming
 * a sign-in method of this user; its spend marks the token in the replay store (single use).
 */
async function checkFreshLinkedToken(
  context: SignerContext,
  input: {
    userId: string
    method: { type: 'oauth' | 'jwt'; identifier: string }
    token: string
    issuedAtMs: number
    replayKeyPrefix: string
    expiresAtMs: number
  },
): Promise<() => Promise<void>> {
  if (context.now() - input.issuedAtMs > maxStepUpIdTokenAgeMs) throw refuse('STEP_UP_REFUSED')
  const [linked] = await context.db
    .select({ id: signerAuthMethods.id })
    .from(signerAuthMethods)
    .where(
      and(
        eq(signerAuthMethods.userId, input.userId),
        eq(signerAuthMethods.type, input.method.type),
        eq(signerAuthMethods.identifier, input.method.identifier),
      ),
    )
  if (linked === undefined) throw refuse('STEP_UP_REFUSED')
  const tokenHash = createHash('sha256').update(input.token, 'utf8').digest('hex')
  return async () => {
    const replays = createDatabaseReplayStore(context.db, context.now)
    if (!(await replays.markSeen(`${input.replayKeyPrefix}:${tokenHash}`, input.expiresAtMs))) {
      throw refuse('STEP_UP_REFUSED')
    }
  }
}

/** One JWT verifier per signer context, so the issuers' key sets are fetched once (create-jwt-verifier.ts). */
const jwtVerifiers = new WeakMap<SignerContext, JwtVerifier>()

/**
 * A fresh custom JWT naming a `jwt` sign-in method of this user, minted for the stamping session's
 * frame key (its `nonce`, as at auth-jwt: a token fetched for another browser proves nothing
 * here); spent in the replay store.
 */
async function checkCustomJwt(
  context: SignerContext,
  userId: string,
  jwt: string,
  sessionPublicKey: string,
): Promise<() => Promise<void>> {
  const [session] = await context.db
    .select({ targetPublicKey: signerSessionKeys.targetPublicKey })
    .from(signerSessionKeys)
    .where(eq(signerSessionKeys.publicKey, sessionPublicKey))
  const targetPublicKey = session?.targetPublicKey ?? undefined
  if (targetPublicKey === undefined) throw refuse('STEP_UP_REFUSED')
  let verify = jwtVerifiers.get(context)
  if (verify === undefined) {
    verify = createJwtVerifier(context.config.jwtProviders ?? [], context.now)
    jwtVerifiers.set(context, verify)
  }
  const verified = await verify({ jwt, targetPublicKey }).catch((error: unknown) => {
    throw refuse('STEP_UP_REFUSED', error)
  })
  const issuedAtMs = (decodeJwt(jwt).iat ?? 0) * 1000
  return checkFreshLinkedToken(context, {
    userId,
    method: { type: 'jwt', identifier: `${verified.issuer}|${verified.subject}` },
    token: jwt,
    issuedAtMs,
    replayKeyPrefix: 'step-up-jwt',
    expiresAtMs: issuedAtMs + maxStepUpIdTokenAgeMs + 60_000,
  })
}

/** The current code of one of the user's confirmed TOTP factors, when there is one. */
async function checkTotp(context: SignerContext, userId: string, code: string | undefined): Promise<void> {
  const confirmed = (await findTotpRows(context.db, userId)).filter((row) => row.data.verified)
  if (confirmed.length === 0) return
  if (code === undefined || code.trim() === '') throw refuse('STEP_UP_TOTP_REQUIRED')
  // The user's own code budget, as after a sign-in without a contact (validate-multi-factors.ts).
  const budget: Contact = { channel: 'email', address: `user:${userId}` }
  const nowMs = context.now()
  const lockedUntil = await findContactLock(context.db, budget, nowMs)
  if (lockedUntil !== undefined) throw createContactLockedError(lockedUntil, nowMs)
  let isReplayed = false
  for (const row of confirmed) {
    const result = await checkTotpCode(context, row, code)
    if (result === 'accepted') return
    if (result === 'replayed') isReplayed = true
  }
  if (!isReplayed) {
    const failure = await recordCodeFailure(context.db, { contact: budget, nowMs })
    if (failure.lockedUntil !== undefined) throw createContactLockedError(failure.lockedUntil, nowMs)
  }
  throw refuse('STEP_UP_TOTP_REFUSED')
}

function isContactOf(account: { email: string | null; phone: string | null }, contact: Contact): boolean {
  return contact.channel === 'email' ? account.email === contact.address : account.phone === contact.address
}
