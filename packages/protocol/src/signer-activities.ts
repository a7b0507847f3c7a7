// The signer-call table and its lookups in one file: it is the trust boundary (docs/signer.md#signer-calls),
// read row by row by the frames, the signer and the SDK; longer than 300 lines for that reason.
import type { z } from 'zod/mini'
import { signerCallSchemas } from './signer-call-schemas.ts'

/**
 * Who may build a stamped call (docs/signer.md#signer-calls): `page`, the app page through the
 * auth frame's `STAMP_REQUEST`; `frames`, only the signer frames (the auth frame builds the body
 * itself from a high-level request, the export frame builds exports to its own key).
 */
export type SignerCallBuilder = 'page' | 'frames'

/**
 * What the signer requires beside the session's stamp (docs/signer.md#step-up): `none`, or
 * `reauth`: a fresh proof of a way in the account already has (a code to an existing contact, an
 * existing passkey with user verification, a fresh id token of a linked provider), plus the
 * current TOTP code when the account has a confirmed factor.
 */
export type SignerCallStepUp = 'none' | 'reauth'

/**
 * One row of the signer-call table: the route, the activity type, who may build it, its step-up,
 * and the schemas of its `parameters` and of its 200 answer (signer-call-schemas.ts).
 */
export type SignerCall = {
  path: string
  type: string
  builder: SignerCallBuilder
  stepUp: SignerCallStepUp
  parameters: z.ZodMiniType
  answer: z.ZodMiniType
}

/**
 * Every stamped signer call: its route under `/signer/v1`, the activity type its body must name
 * (Turnkey's names; docs/signer.md#activity-types), who may build it, its step-up, and its
 * parameter and answer schemas. This one table is the trust boundary (docs/signer.md#signer-calls):
 * the SDK builds its calls from it and parses their answers with it, the signer's routes take their
 * parameter and response schemas, the `type` and the step-up from it, the auth frame stamps for the
 * page only the types it marks `page` (an allowlist: a type not in it is refused too), and
 * docs/signer.md renders it (scripts/render-signer-table.ts).
 */
export const signerActivities = {
  whoami: {
    path: 'whoami',
    type: 'ACTIVITY_TYPE_WHOAMI',
    builder: 'page',
    stepUp: 'none',
    ...signerCallSchemas.whoami,
  },
  signRawPayload: {
    path: 'sign-payload',
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    builder: 'page',
    stepUp: 'none',
    ...signerCallSchemas.signRawPayload,
  },
  getActivity: {
    path: 'get-activity',
    type: 'ACTIVITY_TYPE_GET',
    builder: 'page',
    stepUp: 'none',
    ...signerCallSchemas.getActivity,
  },
  listAuthMethods: {
    path: 'list-auth-methods',
    type: 'ACTIVITY_TYPE_LIST_AUTH_METHODS',
    builder: 'page',
    stepUp: 'none',
    ...signerCallSchemas.listAuthMethods,
  },
  revokeSession: {
    path: 'revoke-session',
    type: 'ACTIVITY_TYPE_REVOKE_SESSION',
    builder: 'page',
    stepUp: 'none',
    ...signerCallSchemas.revokeSession,
  },
  // Exports: the export frame builds them to its own key, so the secret never reaches the page.
  exportWallet: {
    path: 'export-wallet',
    type: 'ACTIVITY_TYPE_EXPORT_WALLET',
    builder: 'frames',
    stepUp: 'none',
    ...signerCallSchemas.exportWallet,
  },
  exportWalletAccount: {
    path: 'export-wallet-account',
    type: 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT',
    builder: 'frames',
    stepUp: 'none',
    ...signerCallSchemas.exportWalletAccount,
  },
  // Contacts (docs/signer.md#contact-change): the step-up is in the parameters, a code to the
  // account's current contact (previousContactVerificationToken) beside the new one's.
  updateEmail: {
    path: 'update-email-auth',
    type: 'ACTIVITY_TYPE_UPDATE_EMAIL_AUTH',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.updateEmail,
  },
  updatePhone: {
    path: 'update-phone-auth',
    type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.updatePhone,
  },
  // Taking a contact off (docs/signer.md#contact-removal): proven by a code sent to that contact.
  removeEmail: {
    path: 'remove-email-auth',
    type: 'ACTIVITY_TYPE_REMOVE_EMAIL_AUTH',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.removeEmail,
  },
  removePhone: {
    path: 'remove-phone-auth',
    type: 'ACTIVITY_TYPE_REMOVE_PHONE_AUTH',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.removePhone,
  },
  // Passkeys (docs/signer.md#passkeys): add one to the signed-in user, remove one.
  addPasskey: {
    path: 'add-authenticator',
    type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.addPasskey,
  },
  removePasskey: {
    path: 'remove-authenticator',
    type: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.removePasskey,
  },
  // Social login (docs/signer.md#social-login): link and unlink a provider identity.
  addOauthProvider: {
    path: 'add-oauth-provider',
    type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.addOauthProvider,
  },
  removeOauthProvider: {
    path: 'remove-oauth-provider',
    type: 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.removeOauthProvider,
  },
  // Second factors (TOTP); the types carry the MFA payload tags (docs/signer.md#multi-factor).
  // Confirming an enrolment needs no step-up of its own: only an enrolment started with one exists.
  listMultiFactors: {
    path: 'auth-list-multi-factors',
    type: 'ACTIVITY_TYPE_LIST_MFAS',
    builder: 'page',
    stepUp: 'none',
    ...signerCallSchemas.listMultiFactors,
  },
  requestMultiFactor: {
    path: 'auth-request-multi-factor',
    type: 'ACTIVITY_TYPE_ADD_MFA',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.requestMultiFactor,
  },
  verifyMultiFactor: {
    path: 'auth-verify-multi-factor',
    type: 'ACTIVITY_TYPE_VERIFY_MFA',
    builder: 'page',
    stepUp: 'none',
    ...signerCallSchemas.verifyMultiFactor,
  },
  deleteMultiFactors: {
    path: 'auth-delete-multi-factors',
    type: 'ACTIVITY_TYPE_DELETE_MFAS',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.deleteMultiFactors,
  },
  // Multi-owner (experimental, MULTI_OWNER_ENABLED; docs/signer.md#multi-owner): EVM signer members
  // and a root quorum on the organization; the quorum's activities wait in CONSENSUS_NEEDED.
  // Everything that changes who can sign is frames-built with a step-up; signing through the
  // quorum is the page's.
  multiOwnerCreate: {
    path: 'multi-owner-create',
    type: 'ACTIVITY_TYPE_CREATE_MULTI_OWNER',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.multiOwnerCreate,
  },
  multiOwnerPrepareAdd: {
    path: 'multi-owner-prepare-add',
    type: 'ACTIVITY_TYPE_PREPARE_ADD_MULTI_OWNER_MEMBERS',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.multiOwnerPrepareAdd,
  },
  multiOwnerAdd: {
    path: 'multi-owner-add',
    type: 'ACTIVITY_TYPE_ADD_MULTI_OWNER_MEMBERS',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.multiOwnerAdd,
  },
  multiOwnerPrepareDelete: {
    path: 'multi-owner-prepare-delete',
    type: 'ACTIVITY_TYPE_PREPARE_DELETE_MULTI_OWNER_MEMBERS',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.multiOwnerPrepareDelete,
  },
  multiOwnerDelete: {
    path: 'multi-owner-delete',
    type: 'ACTIVITY_TYPE_DELETE_MULTI_OWNER_MEMBERS',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.multiOwnerDelete,
  },
  multiOwnerUpdateRootQuorum: {
    path: 'multi-owner-update-root-quorum',
    type: 'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM',
    builder: 'frames',
    stepUp: 'reauth',
    ...signerCallSchemas.multiOwnerUpdateRootQuorum,
  },
  multiOwnerSignRawPayload: {
    path: 'multi-owner-sign-raw-payload',
    type: 'ACTIVITY_TYPE_MULTI_OWNER_SIGN_RAW_PAYLOAD',
    builder: 'page',
    stepUp: 'none',
    ...signerCallSchemas.multiOwnerSignRawPayload,
  },
} as const satisfies Record<string, SignerCall>

/** The name of one row of the table. */
export type SignerActivityName = keyof typeof signerActivities

/** The parameters (as parsed) of one stamped call. */
export type SignerCallParameters<Name extends SignerActivityName> = z.output<
  (typeof signerActivities)[Name]['parameters']
>

/** The 200 answer (as parsed) of one stamped call. */
export type SignerCallAnswer<Name extends SignerActivityName> = z.output<
  (typeof signerActivities)[Name]['answer']
>

/** The activity type of one stamped call. */
export type SignerActivityType = (typeof signerActivities)[SignerActivityName]['type']

/** The calls the auth frame builds from a high-level request with a step-up (`STAMP_ACCESS_CHANGE`). */
export type AccessChangeCallName = {
  [Name in SignerActivityName]: (typeof signerActivities)[Name] extends {
    builder: 'frames'
    stepUp: 'reauth'
  }
    ? Name
    : never
}[SignerActivityName]

const pageActivityTypes: ReadonlySet<string> = new Set(
  Object.values(signerActivities)
    .filter((call) => call.builder === 'page')
    .map((call) => call.type),
)

/**
 * Whether the auth frame may stamp a body of this activity type for the app page: only the types
 * the table marks `page` (an allowlist; anything else, a type it does not know included, is
 * frames-built or not stamped at all). Never throws.
 */
export function isPageActivityType(type: unknown): boolean {
  return typeof type === 'string' && pageActivityTypes.has(type)
}

/** The row of the table for an activity type; undefined for a type it does not list. Never throws. */
export function findSignerCallByType(type: unknown): (SignerCall & { name: SignerActivityName }) | undefined {
  for (const [name, call] of Object.entries(signerActivities)) {
    if (call.type === type) return { ...call, name: name as SignerActivityName }
  }
  return undefined
}

/**
 * The signer's and the frames' refusal reasons (`error.details.reason` of a signer answer, `reason`
 * of a frame's ERROR): codes a client tells apart, never message strings (docs/signer.md#step-up).
 */
export const signerRefusalReasons = {
  /** The auth frame does not stamp this activity type for the page (not `page` in the table). */
  NOT_FOR_THE_PAGE: 'NOT_FOR_THE_PAGE',
  /** The call changes a way in and carries no re-authentication. */
  STEP_UP_REQUIRED: 'STEP_UP_REQUIRED',
  /** The re-authentication is not valid: stale, spent, forged, or for a way in of another account. */
  STEP_UP_REFUSED: 'STEP_UP_REFUSED',
  /** The account has an authenticator app and the call carries no current code. */
  STEP_UP_TOTP_REQUIRED: 'STEP_UP_TOTP_REQUIRED',
  /** The authenticator code is wrong (or the factor is locked). */
  STEP_UP_TOTP_REFUSED: 'STEP_UP_TOTP_REFUSED',
  /** A passkey registered or stamped without user verification. */
  USER_VERIFICATION_REQUIRED: 'USER_VERIFICATION_REQUIRED',
} as const

export type SignerRefusalReason = keyof typeof signerRefusalReasons

/** The row of the table for a route path (`whoami`, `add-authenticator`…); undefined for another. Never throws. */
export function findSignerCallByPath(path: unknown): (SignerCall & { name: SignerActivityName }) | undefined {
  for (const [name, call] of Object.entries(signerActivities)) {
    if (call.path === path) return { ...call, name: name as SignerActivityName }
  }
  return undefined
}
