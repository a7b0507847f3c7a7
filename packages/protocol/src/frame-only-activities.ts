import { isPageActivityType, signerActivities } from './signer-activities.ts'

/** What an export yields: the wallet's seed phrase, or one account's private key. */
export type ExportKind = 'SEED_PHRASE' | 'PRIVATE_KEY'

/**
 * The signer activities that only the frames origin may build and stamp
 * (docs/signer.md#frame-only-activities, docs/decisions/0014): an export (its `targetPublicKey` decides who can read the secret)
 * and a change of a sign-in contact (it decides who can sign in). The auth frame refuses to stamp
 * them for the app page; the export frame builds exports with its own key, the auth frame builds
 * contact changes from high-level parameters. Routes and types from `signerActivities`, the table
 * the signer's routes check.
 */
export const frameOnlyActivities = {
  exportWallet: signerActivities.exportWallet,
  exportWalletAccount: signerActivities.exportWalletAccount,
  updateEmail: signerActivities.updateEmail,
  updatePhone: signerActivities.updatePhone,
  removeEmail: signerActivities.removeEmail,
  removePhone: signerActivities.removePhone,
} as const

/** What an export shows: the wallet's seed phrase, or the private key of one of its addresses. */
export type ExportTarget =
  | { kind: 'SEED_PHRASE'; walletId: string }
  | { kind: 'PRIVATE_KEY'; address: string }

/**
 * A change of the sign-in e-mail (`channel: 'email'`) or phone (`'sms'`): the new contact and the
 * `verify-otp` token proving it, and, when the account already has a contact on that channel, a
 * `verify-otp` token proving that one too (the signer refuses the change without it).
 */
export type ContactChange = {
  channel: 'email' | 'sms'
  contact: string
  verificationToken: string
  previousContactVerificationToken?: string
  /** The current code of the account's authenticator app, when it has one (the step-up's second part). */
  totpCode?: string
}

/**
 * The removal of the sign-in e-mail (`channel: 'email'`) or phone (`'sms'`), proven by a
 * `verify-otp` token for that contact (docs/signer.md#contact-removal).
 */
export type ContactRemoval = {
  channel: 'email' | 'sms'
  verificationToken: string
  /** The current code of the account's authenticator app, when it has one (the step-up's second part). */
  totpCode?: string
}

/** A signer call before it is serialised: the route, the activity type and its parameters. */
export type ActivityCall = { path: string; type: string; parameters: Record<string, unknown> }

/**
 * Whether the app page may NOT have a body of this activity type stamped: every type the signer-call
 * table (signer-activities.ts) does not mark `page`, so exports, contact changes, every change of
 * a way in and any type the table does not list (an allowlist, not a list of what to refuse).
 * Never throws.
 */
export function isFrameOnlyActivityType(type: string): boolean {
  return !isPageActivityType(type)
}

/** Whether `type` is one of the two export activities the export frame builds. Never throws. */
export function isExportActivityType(type: unknown): boolean {
  return (
    type === frameOnlyActivities.exportWallet.type || type === frameOnlyActivities.exportWalletAccount.type
  )
}

/**
 * The exact string a stamped call signs: `{type, timestampMs, organizationId, parameters}` in
 * that order, `timestampMs` as a decimal string (what the signer checks for freshness).
 * Never throws.
 */
export function buildActivityBody(input: {
  type: string
  organizationId: string
  parameters: Record<string, unknown>
  timestampMs: number
}): string {
  return JSON.stringify({
    type: input.type,
    timestampMs: String(Math.round(input.timestampMs)),
    organizationId: input.organizationId,
    parameters: input.parameters,
  })
}

/** The export call for `target`, encrypted to `targetPublicKey` (the export frame's own key). */
export function describeExportActivity(target: ExportTarget, targetPublicKey: string): ActivityCall {
  if (target.kind === 'SEED_PHRASE') {
    return {
      ...toRoute(frameOnlyActivities.exportWallet),
      parameters: { walletId: target.walletId, targetPublicKey },
    }
  }
  return {
    ...toRoute(frameOnlyActivities.exportWalletAccount),
    parameters: { address: target.address, targetPublicKey },
  }
}

/** The `update-email-auth` or `update-phone-auth` call for `change`. */
export function describeContactChangeActivity(change: ContactChange): ActivityCall {
  const proof = {
    verificationToken: change.verificationToken,
    ...(change.previousContactVerificationToken === undefined
      ? {}
      : { previousContactVerificationToken: change.previousContactVerificationToken }),
  }
  const stepUp = toTotpStepUp(change.totpCode)
  return change.channel === 'email'
    ? {
        ...toRoute(frameOnlyActivities.updateEmail),
        parameters: { email: change.contact, ...proof, ...stepUp },
      }
    : {
        ...toRoute(frameOnlyActivities.updatePhone),
        parameters: { phone: change.contact, ...proof, ...stepUp },
      }
}

/** The `stepUp` parameter carrying only an authenticator code (the contact's code is the re-authentication). */
function toTotpStepUp(totpCode: string | undefined): { stepUp?: { totpCode: string } } {
  return totpCode === undefined ? {} : { stepUp: { totpCode } }
}

/** The `remove-email-auth` or `remove-phone-auth` call for `removal`. */
export function describeContactRemovalActivity(removal: ContactRemoval): ActivityCall {
  const activity =
    removal.channel === 'email' ? frameOnlyActivities.removeEmail : frameOnlyActivities.removePhone
  return {
    ...toRoute(activity),
    parameters: { verificationToken: removal.verificationToken, ...toTotpStepUp(removal.totpCode) },
  }
}

/** A table row's route and type, without its builder and step-up. */
export function toRoute(call: { path: string; type: string }): { path: string; type: string } {
  return { path: call.path, type: call.type }
}

/**
 * Reads a {@link ContactRemoval} from a message: a known channel, a token of 1–4096 characters
 * and optionally an authenticator code of 1–32. Undefined for anything else (extra fields are
 * dropped); never throws.
 */
export function parseContactRemoval(value: unknown): ContactRemoval | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { channel, verificationToken, totpCode } = value as Record<string, unknown>
  if (channel !== 'email' && channel !== 'sms') return undefined
  if (!isShortText(verificationToken, 4096)) return undefined
  if (totpCode === undefined) return { channel, verificationToken }
  if (!isShortText(totpCode, 32)) return undefined
  return { channel, verificationToken, totpCode }
}

/**
 * Reads an {@link ExportTarget} from a message (structured-clone data from another window): the
 * kind, and a wallet id or address of 1–128 characters. Undefined for anything else; never throws.
 */
export function parseExportTarget(value: unknown): ExportTarget | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { kind, walletId, address } = value as Record<string, unknown>
  if (kind === ('SEED_PHRASE' satisfies ExportKind) && isShortText(walletId, 128)) {
    return { kind: 'SEED_PHRASE', walletId }
  }
  if (kind === ('PRIVATE_KEY' satisfies ExportKind) && isShortText(address, 128)) {
    return { kind: 'PRIVATE_KEY', address }
  }
  return undefined
}

/**
 * Reads a {@link ContactChange} from a message: a known channel, a contact of 1–320 characters,
 * tokens of 1–4096, optionally an authenticator code of 1–32. Undefined for anything else (extra
 * fields are dropped); never throws.
 */
export function parseContactChange(value: unknown): ContactChange | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { channel, contact, verificationToken, previousContactVerificationToken, totpCode } = value as Record<
    string,
    unknown
  >
  if (channel !== 'email' && channel !== 'sms') return undefined
  if (!isShortText(contact, 320) || !isShortText(verificationToken, 4096)) return undefined
  const change: ContactChange = { channel, contact, verificationToken }
  if (previousContactVerificationToken !== undefined) {
    if (!isShortText(previousContactVerificationToken, 4096)) return undefined
    change.previousContactVerificationToken = previousContactVerificationToken
  }
  if (totpCode !== undefined) {
    if (!isShortText(totpCode, 32)) return undefined
    change.totpCode = totpCode
  }
  return change
}

function isShortText(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength
}
