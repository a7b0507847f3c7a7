// The whole signer HTTP API in one client (its type, one method per call of the signer-call table):
// longer than 300 lines because each call is documented where callers read it.
import { type AppError, isErrorCode, parseErrorBody } from '@quicklinks/core/app-error'
import { buildActivityBody } from '@quicklinks/protocol/frame-only-activities'
import {
  type AccessChangeCallName,
  findSignerCallByPath,
  findSignerCallByType,
  type SignerActivityName,
  type SignerCallAnswer,
  signerActivities,
} from '@quicklinks/protocol/signer-activities'
import { signerRoutes } from '@quicklinks/protocol/signer-routes'
import type { StampedCall } from '@quicklinks/protocol/stamped-call'
import { isAccessChangeCall, type StepUpProof, withStepUp } from '@quicklinks/protocol/step-up'
import type { z } from 'zod/mini'
import type {
  MfaRequiredResult,
  MultiFactor,
  MultiFactorCode,
  MultiFactorEnrolment,
  ValidateMultiFactorsResult,
} from './multi-factor-types.ts'
import type {
  MultiOwnerActivity,
  MultiOwnerActivityResult,
  MultiOwnerApproval,
  MultiOwnerApprovalPath,
  MultiOwnerCreateResult,
  MultiOwnerMember,
} from './multi-owner-types.ts'
import type { OAuthConfig } from './oauth-login.ts'
import { parseSignerAnswer, viewActivityResult } from './parse-signer-answer.ts'
import type {
  AddedPasskey,
  PasskeyAttestation,
  PasskeyChallenge,
  PasskeySignupRequest,
  PasskeySignupResult,
  PasskeyStamp,
} from './passkey-types.ts'
import { sdkVersion, sdkVersionHeader } from './sdk-version.ts'
import type {
  Activity,
  AuthMethods,
  EmailAuthRequest,
  JwtAuthRequest,
  OtpResult,
  SignerConfig,
  SignInResult,
  SignupResult,
  SmsAuthRequest,
  WhoamiResult,
} from './signer-types.ts'
import type { Stamper } from './stamper.ts'
import { createWalletError } from './wallet-error.ts'

/**
 * The step-up of a change of a way in (docs/signer.md#step-up), as the client sends it: a proof
 * (`verificationToken`, `oidcToken`…, plus `totpCode` when the account has an authenticator app),
 * or `stampWithPasskey`, which has one of the account's passkeys stamp the call itself (user
 * verified) instead of the session key.
 */
export type ClientStepUp = StepUpProof & { stampWithPasskey?: (body: string) => Promise<PasskeyStamp> }

export type SignerClientOptions = {
  /** The origin the signer is mounted on (the app server), e.g. `https://pay.example.com`. */
  baseUrl: string
  /** Extra headers per request, e.g. `X-CSRF-Token` (the app server's CSRF plugin covers /signer). */
  getHeaders?: () => Record<string, string> | Promise<Record<string, string>>
  fetch?: typeof fetch
  /** The local clock (default `Date.now`); the client corrects it with the server's `Date` header. */
  now?: () => number
}

/** What a signing call answers; the signature is also in `activity.result` once completed. */
export type SignPayloadResult = {
  signature?: `0x${string}`
  activity: Activity<{ signature?: `0x${string}` }>
}

export type SignPayloadParameters = {
  signWith: string
  payload: `0x${string}`
  encoding: 'PAYLOAD_ENCODING_HEXADECIMAL'
  hashFunction: 'HASH_FUNCTION_NO_OP' | 'HASH_FUNCTION_NOT_APPLICABLE'
}

export type ExportResult = { activity: Activity<{ exportBundle?: string }> }

/** The signer service's HTTP API (`/signer/v1/*`), unauthenticated and stamped calls. */
export type SignerClient = {
  readonly baseUrl: string
  /**
   * The local clock corrected to the server's, in epoch ms: what stamps carry. Each call answers a
   * later time than the one before, so two identical calls never stamp the same body.
   */
  serverNow(): number
  /** An orgId for every contact, the same shape with or without an account (docs/signer.md#lookup). */
  lookup(input: { email: string } | { phone: string }): Promise<{ orgId: string }>
  /**
   * The account-creation call: sends a code and answers the wallet reserved for it, which becomes
   * the account if the contact has none when the code is used (docs/signer.md#signup-auth).
   */
  signup(input: EmailAuthRequest | SmsAuthRequest): Promise<SignupResult>
  /** The init call: sends a code (or a magic link) to a contact. */
  auth(input: EmailAuthRequest | SmsAuthRequest): Promise<{ orgId: string; otpId: string }>
  otp(input: {
    orgId: string
    otpId: string
    otpCode: string
    targetPublicKey: string
    expirationSeconds?: number
  }): Promise<OtpResult>
  /**
   * Opens a magic link: trades its `bundle` parameter (a one-time token) for a credential bundle
   * encrypted to `targetPublicKey`, which must be the key the link was asked for. The signer mints
   * the session only now.
   */
  openMagicLink(input: {
    orgId: string
    token: string
    targetPublicKey: string
    expirationSeconds?: number
  }): Promise<SignInResult | MfaRequiredResult>
  /**
   * Signs in with a JWT of a configured issuer (`auth-jwt`): the signer verifies it, creates the
   * account at the issuer and subject's first sign-in, and answers a credential bundle encrypted to
   * `targetPublicKey` (docs/signer.md#auth-jwt), or MFA_REQUIRED for an account with a confirmed
   * authenticator app (docs/signer.md#mfa-required).
   */
  authJwt(input: JwtAuthRequest): Promise<SignInResult | (MfaRequiredResult & { orgId: string })>
  initOtp(input: { otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS'; contact: string }): Promise<{ otpId: string }>
  verifyOtp(input: { otpId: string; otpCode: string }): Promise<{ verificationToken: string }>
  /** Fetched once and cached; a failure is not cached. */
  getSignerConfig(): Promise<SignerConfig>
  /** Starts a social login: the OAuth config for the frame key's `nonce` (docs/signer.md#prepare-oauth). */
  prepareOauth(input: { nonce: string }): Promise<OAuthConfig>
  /**
   * POSTs a call built and stamped elsewhere (the frames origin) as it is: its body is signed, so
   * this page can relay it but not change it. Only to a path of the signer-call table, and its
   * answer is parsed with that row's schema (`TResult` is the caller's view of it); rejects with
   * MALFORMED_SIGNER_ANSWER when the answer does not parse.
   */
  postStampedCall<TResult>(call: StampedCall): Promise<TResult>
  /**
   * A change of a way in (`call`, a `reauth` row of the signer-call table) with its step-up
   * (docs/signer.md#step-up): built and stamped where the session key is, or stamped by a passkey.
   */
  postAccessChange<TResult>(
    call: AccessChangeCallName,
    stamper: Stamper,
    organizationId: string,
    parameters: Record<string, unknown>,
    stepUp: ClientStepUp,
  ): Promise<TResult>
  /**
   * POSTs `{stampedRequest}` to `path` (a path of the signer-call table) with a body built from
   * `request` and stamped by `stamper`; the answer parsed like {@link postStampedCall}'s.
   */
  stampedRequest<TResult>(
    path: string,
    request: { type: string; organizationId: string; parameters: Record<string, unknown> },
    stamper: Stamper,
  ): Promise<TResult>
  whoami(stamper: Stamper, organizationId: string): Promise<WhoamiResult>
  signPayload(
    stamper: Stamper,
    organizationId: string,
    parameters: SignPayloadParameters,
  ): Promise<SignPayloadResult>
  getActivity(stamper: Stamper, organizationId: string, activityId: string): Promise<{ activity: Activity }>
  listAuthMethods(stamper: Stamper, organizationId: string): Promise<AuthMethods>
  /** Ends the session key that stamps this call at the signer (logout); later stamps with it get 401. */
  revokeSession(stamper: Stamper, organizationId: string): Promise<{ revoked: boolean }>
  /** A single-use challenge for creating a passkey, with the signer's relying party (docs/signer.md#passkeys). */
  passkeyChallenge(): Promise<PasskeyChallenge>
  /** `signup` with a new passkey: the account at once, and its first session with `targetPublicKey`. */
  signupWithPasskey(input: PasskeySignupRequest): Promise<PasskeySignupResult>
  /**
   * `auth-passkey`: builds Turnkey's stamp-login body for `targetPublicKey` (organization `root`:
   * the user is found by the passkey), has `stampWithPasskey` stamp it, and answers the credential
   * bundle. Rejects with 'No user found' when no account has the passkey.
   */
  authPasskey(
    input: { targetPublicKey: string; expirationSeconds?: number },
    stampWithPasskey: (body: string) => Promise<PasskeyStamp>,
  ): Promise<SignInResult>
  /** Adds a passkey made for a `passkeyChallenge` to the signed-in user. */
  addPasskey(
    stamper: Stamper,
    organizationId: string,
    parameters: { challenge: string; attestation: PasskeyAttestation; authenticatorName?: string },
    stepUp: ClientStepUp,
  ): Promise<AddedPasskey>
  /** Removes one of the user's passkeys; the signer refuses the last way to sign in. */
  removePasskey(
    stamper: Stamper,
    organizationId: string,
    authenticatorId: string,
    stepUp: ClientStepUp,
  ): Promise<{ removed: boolean }>
  /**
   * Completes a sign-in that `otp` or `magic-link` answered with MFA_REQUIRED: the sealed
   * `encryptedPayload` and a code of one factor; `targetPublicKey` (the auth frame's key) must be
   * the one the code was sent with (docs/signer.md#auth-validate-multi-factors).
   */
  validateMultiFactors(input: {
    encryptedPayload: string
    multiFactors: MultiFactorCode[]
    targetPublicKey?: string
  }): Promise<ValidateMultiFactorsResult>
  /** The user's confirmed second factors (docs/signer.md#multi-factor). */
  listMultiFactors(stamper: Stamper, organizationId: string): Promise<{ multiFactors: MultiFactor[] }>
  /** Starts a TOTP enrolment: the secret and its otpauth URI, confirmed by {@link verifyMultiFactor}. */
  requestMultiFactor(
    stamper: Stamper,
    organizationId: string,
    parameters: { multiFactorType: string },
    stepUp: ClientStepUp,
  ): Promise<MultiFactorEnrolment>
  /** Confirms an enrolment with a first code; answers the confirmed factors. */
  verifyMultiFactor(
    stamper: Stamper,
    organizationId: string,
    parameters: MultiFactorCode,
  ): Promise<{ multiFactors: MultiFactor[] }>
  /** Removes factors; answers those left. */
  deleteMultiFactors(
    stamper: Stamper,
    organizationId: string,
    parameters: { multiFactorIds: string[] },
    stepUp: ClientStepUp,
  ): Promise<{ multiFactors: MultiFactor[] }>
  // Multi-owner (experimental; the signer answers 403 unless MULTI_OWNER_ENABLED,
  // docs/signer.md#multi-owner). Quorum activities answer CONSENSUS_NEEDED until enough members
  // approved: poll them with `getActivity` (pollActivity throws on CONSENSUS_NEEDED).
  /** Makes the organization multi-owner: its wallet and `members`, a root quorum (default 1), the account. */
  multiOwnerCreate(
    stamper: Stamper,
    organizationId: string,
    parameters: { members: MultiOwnerMember[]; rootQuorumThreshold?: number },
    stepUp: ClientStepUp,
  ): Promise<MultiOwnerCreateResult>
  /** Proposes adding members: a waiting activity whose `result.consensus.approvalMessage` members sign. */
  multiOwnerPrepareAdd(
    stamper: Stamper,
    organizationId: string,
    members: MultiOwnerMember[],
    stepUp: ClientStepUp,
  ): Promise<{ activity: MultiOwnerActivity }>
  /** The session's (wallet member's) approval of a prepared addition; runs it at quorum. */
  multiOwnerAdd(
    stamper: Stamper,
    organizationId: string,
    activityId: string,
    stepUp: ClientStepUp,
  ): Promise<{ activity: MultiOwnerActivity }>
  /** Proposes removing members (never the wallet, never below the quorum). */
  multiOwnerPrepareDelete(
    stamper: Stamper,
    organizationId: string,
    members: MultiOwnerMember[],
    stepUp: ClientStepUp,
  ): Promise<{ activity: MultiOwnerActivity }>
  /** The session's approval of a prepared removal; runs it at quorum. */
  multiOwnerDelete(
    stamper: Stamper,
    organizationId: string,
    activityId: string,
    stepUp: ClientStepUp,
  ): Promise<{ activity: MultiOwnerActivity }>
  /** Asks to change the root quorum threshold (the session's approval counted). */
  multiOwnerUpdateRootQuorum(
    stamper: Stamper,
    organizationId: string,
    rootQuorumThreshold: number,
    stepUp: ClientStepUp,
  ): Promise<{ activity: MultiOwnerActivity }>
  /**
   * Asks for the k members' signatures of a hash once the quorum approves (the session's approval
   * counted; `requiredApprovals` asks for more than the threshold).
   */
  multiOwnerSignRawPayload(
    stamper: Stamper,
    organizationId: string,
    parameters: SignPayloadParameters & { requiredApprovals?: number },
  ): Promise<{ activity: MultiOwnerActivity }>
  /** Posts a member's own approval (no session: its EIP-191 signature is the proof) at the activity's path. */
  approveMultiOwnerActivity(
    path: MultiOwnerApprovalPath,
    approval: MultiOwnerApproval,
  ): Promise<{ activity: MultiOwnerActivity }>
}

/**
 * Creates the client for the signer service mounted at `{baseUrl}/signer/v1`. Every call is a
 * JSON POST carrying the SDK's version (`x-quicklinks-sdk-version`). Exports and contact changes have no helper here: their bodies are built and stamped
 * in the frames origin and relayed with {@link SignerClient.postStampedCall} (docs/decisions/0014). The client learns the server's clock from each response's `Date` header and stamps
 * server time, so a device whose clock is minutes off still signs in (docs/signer.md#clock-skew);
 * before the first stamped call it fetches `signer-config` if it has not heard the server yet.
 *
 * Every answer is parsed with its call's schema from the signer-call table
 * (@quicklinks/protocol/signer-activities, signer-routes; docs/signer.md#signer-calls).
 *
 * Fails: throws 'Missing base URL. Please verify env vars.' without a base URL. Calls reject with
 * an AppError: UPSTREAM_FAILED with `details.reason` MALFORMED_SIGNER_ANSWER when a 2xx answer does
 * not parse; the response's `error.message` (and its code; a signer-specific code such as
 * `OTP_INVALID` is kept in `details.reason`), the response's text when the body is short plain
 * text, '{status} {statusText}' for any other non-JSON body,
 * or a NETWORK error when the request never completed.
 */
export function createSignerClient(options: SignerClientOptions): SignerClient {
  if (typeof options.baseUrl !== 'string' || options.baseUrl.length === 0) {
    throw createWalletError('Missing base URL. Please verify env vars.')
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const now = options.now ?? Date.now
  let clockOffsetMs: number | undefined
  let signerConfig: Promise<SignerConfig> | undefined

  const urlFor = (path: string) => `${baseUrl}/signer/v1/${path}`

  const learnClock = (response: Response, sentAtMs: number) => {
    const date = response.headers.get('date')
    const serverMs = date === null ? Number.NaN : Date.parse(date)
    if (Number.isNaN(serverMs)) return
    // `Date` is truncated to the second: the server's clock was somewhere in [date, date + 1 s).
    const localMidpoint = (sentAtMs + now()) / 2
    clockOffsetMs = serverMs + 500 - localMidpoint
  }

  const postRaw = async (path: string, body: unknown): Promise<unknown> => {
    const headers = {
      ...(options.getHeaders ? await options.getHeaders() : {}),
      accept: 'application/json',
      'content-type': 'application/json',
      [sdkVersionHeader]: sdkVersion,
    }
    const sentAtMs = now()
    let response: Response
    try {
      response = await fetchImpl(urlFor(path), {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        credentials: 'include',
      })
    } catch (error) {
      throw createWalletError('You appear to be offline. Check your connection and try again.', {
        code: 'NETWORK',
        cause: error,
      })
    }
    learnClock(response, sentAtMs)
    const text = await response.text()
    let parsed: unknown
    let isJson = true
    try {
      parsed = text.length === 0 ? undefined : JSON.parse(text)
    } catch {
      isJson = false
    }
    if (!response.ok) throw toSignerError(parsed, isJson, response, text)
    if (!isJson)
      throw createWalletError(`${response.status} ${response.statusText}`, { code: 'UPSTREAM_FAILED' })
    return parsed
  }

  /** An unstamped call (a row of the signer-route table), its answer parsed with the row's schema. */
  const callRoute = async <Schema extends z.core.$ZodType>(
    route: { path: string; answer: Schema },
    body: unknown,
  ): Promise<z.output<Schema>> => parseSignerAnswer(route.answer, await postRaw(route.path, body), route.path)

  /** A stamped call (a row of the signer-call table) posted as built, its answer parsed with the row's schema. */
  const postStamped = async <Schema extends z.core.$ZodType>(
    call: { path: string; answer: Schema },
    { body, stamp }: { body: string; stamp: StampedCall['stamp'] | PasskeyStamp },
  ): Promise<z.output<Schema>> => callRoute(call, { stampedRequest: { url: urlFor(call.path), body, stamp } })

  const getSignerConfig = (): Promise<SignerConfig> => {
    signerConfig ??= callRoute(signerRoutes.signerConfig, {}).catch((error: unknown) => {
      signerConfig = undefined
      throw error
    })
    return signerConfig
  }

  // The signer refuses a stamped body it has already seen (docs/signer.md#stamped-requests): the
  // same call made twice within one millisecond, or after the offset was re-learned a little lower,
  // must still differ, so every time handed out is later than the one before.
  let lastServerNowMs = Number.NEGATIVE_INFINITY
  const serverNow = () => {
    lastServerNowMs = Math.max(Math.round(now() + (clockOffsetMs ?? 0)), lastServerNowMs + 1)
    return lastServerNowMs
  }

  const postStampedCall = async <TResult>(call: StampedCall): Promise<TResult> => {
    const row = findSignerCallByPath(call.path)
    if (row === undefined) throw createWalletError(`${call.path} is not a signer call.`)
    // Parsed with the row's answer schema (a malformed answer rejects); TResult is the caller's
    // view of that answer, e.g. an export's `activity.result.exportBundle` (signer-types.ts).
    return (await postStamped(row, call)) as TResult
  }

  const stampedRequest = async <TResult>(
    path: string,
    request: { type: string; organizationId: string; parameters: Record<string, unknown> },
    stamper: Stamper,
  ): Promise<TResult> => {
    if (clockOffsetMs === undefined) await getSignerConfig()
    const body = buildActivityBody({ ...request, timestampMs: serverNow() })
    const stamp = await stamper.stamp(body)
    return postStampedCall<TResult>({ path, body, stamp })
  }

  /** One row of the signer-call table, stamped by `stamper` for `organizationId`; its answer parsed. */
  const callActivity = async <Schema extends z.core.$ZodType>(
    call: { path: string; type: string; answer: Schema },
    stamper: Stamper,
    organizationId: string,
    parameters: Record<string, unknown> = {},
  ): Promise<z.output<Schema>> => {
    if (clockOffsetMs === undefined) await getSignerConfig()
    const body = buildActivityBody({ type: call.type, organizationId, parameters, timestampMs: serverNow() })
    const stamp = await stamper.stamp(body)
    return postStamped(call, { body, stamp })
  }

  /**
   * A change of a way in (a `reauth` row of the table) with its step-up: stamped by one of the
   * account's passkeys when `stepUp.stampWithPasskey` is given (the body built here), else built
   * and stamped where the session key is (`stamper.stampAccessChange`: the auth frame in a browser).
   */
  const callAccessChange = async <Schema extends z.core.$ZodType>(
    activity: { path: string; type: string; answer: Schema },
    stamper: Stamper,
    organizationId: string,
    parameters: Record<string, unknown>,
    stepUp: ClientStepUp,
  ): Promise<z.output<Schema>> => {
    const name = findSignerCallByType(activity.type)?.name
    if (!isAccessChangeCall(name)) throw createWalletError(`${activity.type} is not a change of a way in.`)
    if (clockOffsetMs === undefined) await getSignerConfig()
    const { stampWithPasskey, ...proof } = stepUp
    if (stampWithPasskey !== undefined) {
      const body = buildActivityBody({
        type: activity.type,
        organizationId,
        parameters: withStepUp(parameters, proof),
        timestampMs: serverNow(),
      })
      const stamp = await stampWithPasskey(body)
      return postStamped(activity, { body, stamp })
    }
    const call = await stamper.stampAccessChange({
      call: name,
      parameters,
      stepUp: proof,
      timestampMs: serverNow(),
    })
    if (call.path !== activity.path) throw createWalletError(`${call.path} is not ${activity.path}.`)
    return postStamped(activity, call)
  }

  return {
    baseUrl,
    serverNow,
    lookup: (input) => callRoute(signerRoutes.lookup, input),
    signup: (input) => callRoute(signerRoutes.signup, input),
    auth: (input) => callRoute(signerRoutes.auth, input),
    otp: (input) => callRoute(signerRoutes.otp, input),
    openMagicLink: (input) => callRoute(signerRoutes.magicLink, input),
    authJwt: (input) => callRoute(signerRoutes.authJwt, input),
    initOtp: (input) => callRoute(signerRoutes.initOtp, input),
    verifyOtp: (input) => callRoute(signerRoutes.verifyOtp, input),
    getSignerConfig,
    prepareOauth: (input) => callRoute(signerRoutes.prepareOauth, input),
    postStampedCall,
    postAccessChange: async <TResult>(
      call: AccessChangeCallName,
      stamper: Stamper,
      organizationId: string,
      parameters: Record<string, unknown>,
      stepUp: ClientStepUp,
    ): Promise<TResult> =>
      // Parsed with the row's answer schema; TResult is the caller's view of it (oauth-actions.ts).
      (await callAccessChange<z.core.$ZodType>(
        signerActivities[call],
        stamper,
        organizationId,
        parameters,
        stepUp,
      )) as TResult,
    stampedRequest,
    whoami: (stamper, organizationId) => callActivity(signerActivities.whoami, stamper, organizationId),
    signPayload: async (stamper, organizationId, parameters) => {
      const { signature, activity } = await callActivity(
        signerActivities.signRawPayload,
        stamper,
        organizationId,
        parameters,
      )
      return { signature, activity: viewActivityResult(activity) }
    },
    getActivity: (stamper, organizationId, activityId) =>
      callActivity(signerActivities.getActivity, stamper, organizationId, { activityId }),
    // The optional `suborgId`, inside the stamped body (docs/signer.md#list-auth-methods).
    listAuthMethods: (stamper, organizationId) =>
      callActivity(signerActivities.listAuthMethods, stamper, organizationId, { suborgId: organizationId }),
    revokeSession: (stamper, organizationId) =>
      callActivity(signerActivities.revokeSession, stamper, organizationId),
    passkeyChallenge: () => callRoute(signerRoutes.passkeyChallenge, {}),
    signupWithPasskey: (input) => callRoute(signerRoutes.signup, input),
    authPasskey: async ({ targetPublicKey, expirationSeconds }, stampWithPasskey) => {
      if (clockOffsetMs === undefined) await getSignerConfig()
      const body = buildActivityBody({
        type: 'ACTIVITY_TYPE_STAMP_LOGIN',
        organizationId: 'root',
        parameters: {
          publicKey: targetPublicKey,
          ...(expirationSeconds === undefined ? {} : { expirationSeconds: String(expirationSeconds) }),
        },
        timestampMs: serverNow(),
      })
      const stamp = await stampWithPasskey(body)
      const path = signerRoutes.authPasskey.path
      return callRoute(signerRoutes.authPasskey, { stampedRequest: { url: urlFor(path), body, stamp } })
    },
    addPasskey: (stamper, organizationId, parameters, stepUp) =>
      callAccessChange(signerActivities.addPasskey, stamper, organizationId, parameters, stepUp),
    removePasskey: (stamper, organizationId, authenticatorId, stepUp) =>
      callAccessChange(signerActivities.removePasskey, stamper, organizationId, { authenticatorId }, stepUp),
    validateMultiFactors: (input) => callRoute(signerRoutes.validateMultiFactors, input),
    listMultiFactors: (stamper, organizationId) =>
      callActivity(signerActivities.listMultiFactors, stamper, organizationId),
    requestMultiFactor: (stamper, organizationId, parameters, stepUp) =>
      callAccessChange(signerActivities.requestMultiFactor, stamper, organizationId, parameters, stepUp),
    verifyMultiFactor: (stamper, organizationId, parameters) =>
      callActivity(signerActivities.verifyMultiFactor, stamper, organizationId, parameters),
    deleteMultiFactors: (stamper, organizationId, parameters, stepUp) =>
      callAccessChange(signerActivities.deleteMultiFactors, stamper, organizationId, parameters, stepUp),
    multiOwnerCreate: async (stamper, organizationId, parameters, stepUp) =>
      toMultiOwnerCreateResult(
        await callAccessChange(
          signerActivities.multiOwnerCreate,
          stamper,
          organizationId,
          parameters,
          stepUp,
        ),
      ),
    multiOwnerPrepareAdd: async (stamper, organizationId, members, stepUp) =>
      toMultiOwnerAnswer(
        await callAccessChange(
          signerActivities.multiOwnerPrepareAdd,
          stamper,
          organizationId,
          { members },
          stepUp,
        ),
      ),
    multiOwnerAdd: async (stamper, organizationId, activityId, stepUp) =>
      toMultiOwnerAnswer(
        await callAccessChange(
          signerActivities.multiOwnerAdd,
          stamper,
          organizationId,
          { activityId },
          stepUp,
        ),
      ),
    multiOwnerPrepareDelete: async (stamper, organizationId, members, stepUp) =>
      toMultiOwnerAnswer(
        await callAccessChange(
          signerActivities.multiOwnerPrepareDelete,
          stamper,
          organizationId,
          { members },
          stepUp,
        ),
      ),
    multiOwnerDelete: async (stamper, organizationId, activityId, stepUp) =>
      toMultiOwnerAnswer(
        await callAccessChange(
          signerActivities.multiOwnerDelete,
          stamper,
          organizationId,
          { activityId },
          stepUp,
        ),
      ),
    multiOwnerUpdateRootQuorum: async (stamper, organizationId, rootQuorumThreshold, stepUp) =>
      toMultiOwnerAnswer(
        await callAccessChange(
          signerActivities.multiOwnerUpdateRootQuorum,
          stamper,
          organizationId,
          { rootQuorumThreshold },
          stepUp,
        ),
      ),
    multiOwnerSignRawPayload: async (stamper, organizationId, parameters) =>
      toMultiOwnerAnswer(
        await callActivity(signerActivities.multiOwnerSignRawPayload, stamper, organizationId, parameters),
      ),
    approveMultiOwnerActivity: async (path, approval) =>
      toMultiOwnerAnswer(await callRoute(signerActivities[multiOwnerApprovalCalls[path]], { approval })),
  }
}

/** The rows whose paths take a member's own approval (`{approval}` instead of `{stampedRequest}`). */
const multiOwnerApprovalCalls = {
  'multi-owner-add': 'multiOwnerAdd',
  'multi-owner-delete': 'multiOwnerDelete',
  'multi-owner-update-root-quorum': 'multiOwnerUpdateRootQuorum',
  'multi-owner-sign-raw-payload': 'multiOwnerSignRawPayload',
} as const satisfies Record<MultiOwnerApprovalPath, SignerActivityName>

/** A multi-owner call's parsed answer with its activity's result in the SDK's view (multi-owner-types.ts). */
function toMultiOwnerAnswer(answer: { activity: Activity }): { activity: MultiOwnerActivity } {
  return { activity: viewActivityResult<MultiOwnerActivityResult>(answer.activity) }
}

/** `multi-owner-create`'s parsed answer with its activity's result in the SDK's view. */
function toMultiOwnerCreateResult(answer: SignerCallAnswer<'multiOwnerCreate'>): MultiOwnerCreateResult {
  return { result: answer.result, activity: viewActivityResult<MultiOwnerActivityResult>(answer.activity) }
}

/** The message of the error thrown when an error body says a second factor is required. */
export const mfaRequiredMessage = 'Multi-factor authentication is required to sign in.'

/**
 * The factors of an error body's `data.multiFactors` (a `/v1/auth` refusal, docs/signer.md#sdk-mfa), also read from
 * `error.details.multiFactors`; undefined when the body names none. The signer of this project
 * never sends it (docs/signer.md#multi-factor) but a Turnkey-style service may.
 */
function readMultiFactors(body: unknown): unknown[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const data = (body as { data?: { multiFactors?: unknown } }).data
  if (Array.isArray(data?.multiFactors)) return data.multiFactors
  const details = (body as { error?: { details?: { multiFactors?: unknown } } }).error?.details
  return Array.isArray(details?.multiFactors) ? details.multiFactors : undefined
}

/** A plain-text error body longer than this, or any HTML page, is not shown as the message. */
const maxTextErrorLength = 300

function toSignerError(body: unknown, isJson: boolean, response: Response, text: string): AppError {
  // A non-JSON error is thrown as the response's text (a proxy's or the signer's own plain
  // answer); an HTML page or a long dump is not something to show, so it says the status.
  const plain = text.trim()
  const isShowableText =
    !isJson && plain.length > 0 && plain.length <= maxTextErrorLength && !plain.startsWith('<')
  const fallback = isShowableText ? plain : `${response.status} ${response.statusText}`.trim()
  const error = parseErrorBody(isJson ? body : undefined, response.status, fallback)
  const multiFactors = readMultiFactors(body)
  if (multiFactors !== undefined) {
    // docs/signer.md#sdk-mfa: an error body naming `data.multiFactors` means a second factor is required.
    return createWalletError(mfaRequiredMessage, {
      code: error.code,
      details: { ...(error.details ?? {}), reason: 'MFA_REQUIRED', multiFactors },
    })
  }
  const rawCode =
    typeof body === 'object' && body !== null && 'error' in body
      ? (body as { error: { code?: unknown } }).error?.code
      : undefined
  if (typeof rawCode === 'string' && !isErrorCode(rawCode)) {
    return createWalletError(error.userMessage, {
      code: error.code,
      details: { ...(error.details ?? {}), reason: rawCode },
    })
  }
  return error
}
