/**
 * Every stamped signer call: its route under `/signer/v1` and the activity type its body must name
 * (Turnkey's names; docs/signer.md#activity-types). The SDK builds its calls from this table, the
 * signer's routes check a body's `type` against it, and the frames tell frame-only calls by it.
 */
export const signerActivities = {
  whoami: { path: 'whoami', type: 'ACTIVITY_TYPE_WHOAMI' },
  signRawPayload: { path: 'sign-payload', type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' },
  getActivity: { path: 'get-activity', type: 'ACTIVITY_TYPE_GET' },
  listAuthMethods: { path: 'list-auth-methods', type: 'ACTIVITY_TYPE_LIST_AUTH_METHODS' },
  revokeSession: { path: 'revoke-session', type: 'ACTIVITY_TYPE_REVOKE_SESSION' },
  exportWallet: { path: 'export-wallet', type: 'ACTIVITY_TYPE_EXPORT_WALLET' },
  exportWalletAccount: { path: 'export-wallet-account', type: 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT' },
  updateEmail: { path: 'update-email-auth', type: 'ACTIVITY_TYPE_UPDATE_EMAIL_AUTH' },
  updatePhone: { path: 'update-phone-auth', type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH' },
  // Taking a contact off (docs/signer.md#contact-removal): proven by a code sent to that contact.
  removeEmail: { path: 'remove-email-auth', type: 'ACTIVITY_TYPE_REMOVE_EMAIL_AUTH' },
  removePhone: { path: 'remove-phone-auth', type: 'ACTIVITY_TYPE_REMOVE_PHONE_AUTH' },
  // Passkeys (docs/signer.md#passkeys): add one to the signed-in user, remove one.
  addPasskey: { path: 'add-authenticator', type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2' },
  removePasskey: { path: 'remove-authenticator', type: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS' },
  // Social login (docs/signer.md#social-login): link and unlink a provider identity.
  addOauthProvider: { path: 'add-oauth-provider', type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS' },
  removeOauthProvider: { path: 'remove-oauth-provider', type: 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS' },
  // Second factors (TOTP); the types carry the MFA payload tags (docs/signer.md#multi-factor).
  listMultiFactors: { path: 'auth-list-multi-factors', type: 'ACTIVITY_TYPE_LIST_MFAS' },
  requestMultiFactor: { path: 'auth-request-multi-factor', type: 'ACTIVITY_TYPE_ADD_MFA' },
  verifyMultiFactor: { path: 'auth-verify-multi-factor', type: 'ACTIVITY_TYPE_VERIFY_MFA' },
  deleteMultiFactors: { path: 'auth-delete-multi-factors', type: 'ACTIVITY_TYPE_DELETE_MFAS' },
  // Multi-owner (experimental, MULTI_OWNER_ENABLED; docs/signer.md#multi-owner): EVM signer members
  // and a root quorum on the organization; the quorum's activities wait in CONSENSUS_NEEDED.
  multiOwnerCreate: { path: 'multi-owner-create', type: 'ACTIVITY_TYPE_CREATE_MULTI_OWNER' },
  multiOwnerPrepareAdd: {
    path: 'multi-owner-prepare-add',
    type: 'ACTIVITY_TYPE_PREPARE_ADD_MULTI_OWNER_MEMBERS',
  },
  multiOwnerAdd: { path: 'multi-owner-add', type: 'ACTIVITY_TYPE_ADD_MULTI_OWNER_MEMBERS' },
  multiOwnerPrepareDelete: {
    path: 'multi-owner-prepare-delete',
    type: 'ACTIVITY_TYPE_PREPARE_DELETE_MULTI_OWNER_MEMBERS',
  },
  multiOwnerDelete: { path: 'multi-owner-delete', type: 'ACTIVITY_TYPE_DELETE_MULTI_OWNER_MEMBERS' },
  multiOwnerUpdateRootQuorum: {
    path: 'multi-owner-update-root-quorum',
    type: 'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM',
  },
  multiOwnerSignRawPayload: {
    path: 'multi-owner-sign-raw-payload',
    type: 'ACTIVITY_TYPE_MULTI_OWNER_SIGN_RAW_PAYLOAD',
  },
} as const

/** The activity type of one stamped call. */
export type SignerActivityType = (typeof signerActivities)[keyof typeof signerActivities]['type']
