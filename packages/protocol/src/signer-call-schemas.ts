import { z } from 'zod/mini'
import {
  activityAnswerSchema,
  activityEnvelopeAnswerSchema,
  anyParametersSchema,
  codeSchema,
  emailSchema,
  evmMemberAddressSchema,
  hexAnswerSchema,
  multiFactorAnswerSchema,
  multiFactorIdSchema,
  multiFactorsAnswerSchema,
  passkeyNameSchema,
  passkeyRegistrationSchema,
  phoneSchema,
  removedAnswerSchema,
  signatureSchema,
  targetPublicKeySchema,
  verificationTokenSchema,
} from './signer-field-schemas.ts'
import { stampedRequestBodySchema } from './stamped-request-body-schema.ts'

// The parameter and answer schemas of the stamped calls, one pair per row of the signer-call
// table (signer-activities.ts). Parameters are what the stamped body's `parameters` must be (a
// `reauth` call's `stepUp` is taken off first, step-up.ts); answers are what the route answers 200.

/** The largest multi-owner organization: the wallet and 9 more EVM signers. */
export const maxMultiOwnerMembers = 10

/** A Solana transaction message is at most 1232 bytes; anything up to 64 KiB is accepted. */
const maxPayloadBytes = 64 * 1024

/** `ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2` parameters (Turnkey's names). */
export const signRawPayloadParametersSchema = z.object({
  signWith: z.string().check(z.minLength(1), z.maxLength(128)),
  payload: z
    .string()
    .check(
      z.maxLength(2 + maxPayloadBytes * 2, `must be at most ${maxPayloadBytes} bytes`),
      z.regex(/^(0x)?(?:[0-9a-fA-F]{2})+$/, 'must be non-empty hex'),
    ),
  encoding: z.literal('PAYLOAD_ENCODING_HEXADECIMAL', { error: 'must be PAYLOAD_ENCODING_HEXADECIMAL' }),
  hashFunction: z.enum(['HASH_FUNCTION_NO_OP', 'HASH_FUNCTION_NOT_APPLICABLE'], {
    error: 'must be HASH_FUNCTION_NO_OP or HASH_FUNCTION_NOT_APPLICABLE',
  }),
})

/** `ACTIVITY_TYPE_EXPORT_WALLET` parameters: the seed phrase of a wallet, to the export frame's key. */
export const exportWalletParametersSchema = z.object({
  walletId: z.string().check(z.minLength(1), z.maxLength(64)),
  targetPublicKey: targetPublicKeySchema,
})

/** `ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT` parameters: the private key of one account. */
export const exportWalletAccountParametersSchema = z.object({
  address: z.string().check(z.minLength(1), z.maxLength(128)),
  targetPublicKey: targetPublicKeySchema,
})

/** `whoami` (and every contact change's) answer: the user, the wallet's addresses, the contacts. */
export const whoamiAnswerSchema = z.object({
  orgId: z.string(),
  userId: z.string(),
  address: hexAnswerSchema,
  solanaAddress: z.string(),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  walletId: z.string(),
})

/** `list-auth-methods`' answer (docs/signer.md#list-auth-methods). */
export const authMethodsAnswerSchema = z.object({
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  oauthProviders: z.array(
    z.object({
      providerId: z.nullable(z.string()),
      issuer: z.string(),
      subject: z.string(),
      email: z.nullable(z.string()),
      createdAt: z.string(),
    }),
  ),
  passkeys: z.array(z.object({ id: z.string(), name: z.nullable(z.string()), createdAt: z.string() })),
})

/**
 * A contact change's parameters: the new contact's `verify-otp` token and, when the account already
 * has a contact on that channel, the current one's (docs/signer.md#contact-change).
 */
const contactProofShape = {
  verificationToken: verificationTokenSchema,
  previousContactVerificationToken: z.optional(verificationTokenSchema),
}

export const updateEmailParametersSchema = z.object({ email: emailSchema, ...contactProofShape })
export const updatePhoneParametersSchema = z.object({ phone: phoneSchema, ...contactProofShape })
/** Taking a contact off: the code sent to that contact (docs/signer.md#contact-removal). */
export const removeContactParametersSchema = z.object({ verificationToken: verificationTokenSchema })

/** `add-authenticator`: a passkey made for a passkey-challenge, and its name. */
export const addPasskeyParametersSchema = z.extend(passkeyRegistrationSchema, {
  authenticatorName: z.optional(passkeyNameSchema),
})

/** `add-oauth-provider`: an id token of a configured provider (docs/signer.md#social-login). */
export const addOauthProviderParametersSchema = z.object({
  providerName: z.string().check(z.minLength(1), z.maxLength(64)),
  oidcToken: z.string().check(z.minLength(1), z.maxLength(16_384)),
})

/** A linked provider identity as `add-oauth-provider` answers it. */
export const linkedOauthProviderAnswerSchema = z.object({
  providerId: z.string(),
  issuer: z.string(),
  subject: z.string(),
  email: z.nullable(z.string()),
})

/** A multi-owner member: an EVM signer address, answered checksummed. */
const memberSchema = z.object({ evmSignerAddress: evmMemberAddressSchema })
const membersSchema = z.array(memberSchema).check(z.minLength(1), z.maxLength(maxMultiOwnerMembers))
const thresholdSchema = z.int().check(z.gte(1), z.lte(maxMultiOwnerMembers))

export const multiOwnerCreateParametersSchema = z.object({
  members: z.array(memberSchema).check(z.maxLength(maxMultiOwnerMembers - 1)),
  rootQuorumThreshold: z.optional(thresholdSchema),
})
export const multiOwnerMembersParametersSchema = z.object({ members: membersSchema })
export const multiOwnerConfirmParametersSchema = z.object({ activityId: z.uuid() })
export const multiOwnerRootQuorumParametersSchema = z.object({ rootQuorumThreshold: thresholdSchema })
/**
 * `requiredApprovals` asks for more members' signatures than the root quorum threshold (at most the
 * members): the account on chain may still need its previous, higher threshold, for instance for
 * the user operation that lowers it.
 */
export const multiOwnerSignRawPayloadParametersSchema = z.extend(signRawPayloadParametersSchema, {
  requiredApprovals: z.optional(thresholdSchema),
})

/**
 * A member's approval of one activity: EIP-191 over its `result.consensus.approvalMessage`, and,
 * for a multi-owner-sign-raw-payload, `payloadSignature`: the member's own raw ECDSA signature of
 * the payload hash, its share of the k signatures the account needs.
 */
export const memberApprovalSchema = z.object({
  activityId: z.uuid(),
  evmSignerAddress: evmMemberAddressSchema,
  signature: signatureSchema,
  payloadSignature: z.optional(signatureSchema),
})

/** The body a member's own approval is posted with at a quorum activity's path (no session). */
export const memberApprovalBodySchema = z.object({ approval: memberApprovalSchema })

/** The paths a member's own approval may go to take `{approval}` instead of `{stampedRequest}`. */
export const stampedOrMemberApprovalBodySchema = z.union([stampedRequestBodySchema, memberApprovalBodySchema])

/** `multi-owner-create`'s answer: the organization's members and account, and the activity. */
export const multiOwnerCreateAnswerSchema = z.object({
  result: z.object({
    orgId: z.string(),
    evmSignerAddress: hexAnswerSchema,
    members: z.array(z.object({ evmSignerAddress: hexAnswerSchema })),
    rootQuorumThreshold: z.number(),
    accountAddress: hexAnswerSchema,
  }),
  activity: activityAnswerSchema,
})

/** The parameters and answer of each stamped call, by the table's row name. */
export const signerCallSchemas = {
  whoami: { parameters: anyParametersSchema, answer: whoamiAnswerSchema },
  signRawPayload: {
    parameters: signRawPayloadParametersSchema,
    answer: z.object({ signature: hexAnswerSchema, activity: activityAnswerSchema }),
  },
  getActivity: {
    parameters: z.object({ activityId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    answer: activityEnvelopeAnswerSchema,
  },
  listAuthMethods: {
    // The optional `suborgId` (docs/signer.md#list-auth-methods): when sent, the stamped organization.
    parameters: z.looseObject({ suborgId: z.optional(z.string().check(z.maxLength(128))) }),
    answer: authMethodsAnswerSchema,
  },
  revokeSession: { parameters: anyParametersSchema, answer: z.object({ revoked: z.boolean() }) },
  exportWallet: { parameters: exportWalletParametersSchema, answer: activityEnvelopeAnswerSchema },
  exportWalletAccount: {
    parameters: exportWalletAccountParametersSchema,
    answer: activityEnvelopeAnswerSchema,
  },
  updateEmail: { parameters: updateEmailParametersSchema, answer: whoamiAnswerSchema },
  updatePhone: { parameters: updatePhoneParametersSchema, answer: whoamiAnswerSchema },
  removeEmail: { parameters: removeContactParametersSchema, answer: whoamiAnswerSchema },
  removePhone: { parameters: removeContactParametersSchema, answer: whoamiAnswerSchema },
  addPasskey: {
    parameters: addPasskeyParametersSchema,
    answer: z.object({ authenticatorId: z.string(), name: z.string(), createdAt: z.string() }),
  },
  removePasskey: {
    parameters: z.object({ authenticatorId: z.string().check(z.minLength(1), z.maxLength(1024)) }),
    answer: removedAnswerSchema,
  },
  addOauthProvider: {
    parameters: addOauthProviderParametersSchema,
    answer: z.object({ oauthProvider: linkedOauthProviderAnswerSchema }),
  },
  removeOauthProvider: {
    parameters: z.object({
      issuer: z.string().check(z.minLength(1), z.maxLength(512)),
      subject: z.string().check(z.minLength(1), z.maxLength(255)),
    }),
    answer: removedAnswerSchema,
  },
  listMultiFactors: { parameters: anyParametersSchema, answer: multiFactorsAnswerSchema },
  requestMultiFactor: {
    // Any string, so a type other than totp gets the service's documented message (docs/signer.md#multi-factor).
    parameters: z.object({ multiFactorType: z.string().check(z.maxLength(64)) }),
    answer: z.extend(multiFactorAnswerSchema, {
      multiFactorSecret: z.string(),
      multiFactorTotpUrl: z.string(),
    }),
  },
  verifyMultiFactor: {
    parameters: z.object({ multiFactorId: multiFactorIdSchema, multiFactorCode: codeSchema }),
    answer: multiFactorsAnswerSchema,
  },
  deleteMultiFactors: {
    parameters: z.object({
      multiFactorIds: z.array(multiFactorIdSchema).check(z.minLength(1), z.maxLength(20)),
    }),
    answer: multiFactorsAnswerSchema,
  },
  multiOwnerCreate: { parameters: multiOwnerCreateParametersSchema, answer: multiOwnerCreateAnswerSchema },
  multiOwnerPrepareAdd: {
    parameters: multiOwnerMembersParametersSchema,
    answer: activityEnvelopeAnswerSchema,
  },
  multiOwnerAdd: { parameters: multiOwnerConfirmParametersSchema, answer: activityEnvelopeAnswerSchema },
  multiOwnerPrepareDelete: {
    parameters: multiOwnerMembersParametersSchema,
    answer: activityEnvelopeAnswerSchema,
  },
  multiOwnerDelete: { parameters: multiOwnerConfirmParametersSchema, answer: activityEnvelopeAnswerSchema },
  multiOwnerUpdateRootQuorum: {
    parameters: multiOwnerRootQuorumParametersSchema,
    answer: activityEnvelopeAnswerSchema,
  },
  multiOwnerSignRawPayload: {
    parameters: multiOwnerSignRawPayloadParametersSchema,
    answer: activityEnvelopeAnswerSchema,
  },
} as const
