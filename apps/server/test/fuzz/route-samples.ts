// Plausible inputs per route for the fuzz suite (fuzz-routes.test.ts): a nasty value only reaches a
// service, and the database behind it, when everything around it is well formed, so each case
// starts from one of these and spoils one part.

/** What the suite has made before it fuzzes: a signed-in user's link and a signer session. */
export type FuzzScene = {
  linkId: string
  linkSlug: string
  orgId: string
  /** The signer session's EVM address and wallet. */
  address: string
  walletId: string
  /** An uncompressed P-256 public key (a frame's), for `targetPublicKey` fields. */
  targetPublicKey: string
}

const uuid = '3f0f6a52-4a3e-4f39-9a49-3c1f4d0d8b2e'
const evmAddress = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const hash32 = `0x${'ab'.repeat(32)}`

/** A well-formed value for a path parameter, by its name. */
export function getPlausibleParam(name: string, scene: FuzzScene): string {
  const values: Record<string, string> = {
    slug: scene.linkSlug,
    id: scene.linkId,
    intentId: uuid,
    username: 'fuzzer',
    chainId: '8453',
    provider: 'local',
    address: evmAddress,
    chain: 'base',
    '*': 'pay/coffee',
  }
  return values[name] ?? 'x'
}

const rpcCall = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }

const x402Requirements = {
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  amount: '1000000',
  payTo: evmAddress,
  maxTimeoutSeconds: 120,
  extra: { name: 'USD Coin', version: '2' },
}
const x402Request = {
  x402Version: 2,
  paymentPayload: {
    x402Version: 2,
    accepted: x402Requirements,
    payload: {
      signature: `0x${'ab'.repeat(65)}`,
      authorization: {
        from: evmAddress,
        to: evmAddress,
        value: '1000000',
        validAfter: '0',
        validBefore: '99999999999',
        nonce: hash32,
      },
    },
  },
  paymentRequirements: x402Requirements,
}

/** A well-formed body per route (`METHOD /url` as registered), for routes that take one. */
export function getSampleBody(routeKey: string, scene: FuzzScene): unknown {
  const contact = { email: 'fuzz@example.com', targetPublicKey: scene.targetPublicKey }
  const samples: Record<string, unknown> = {
    'POST /api/links': {
      alias: 'Fuzz Fund',
      receiver_address: evmAddress,
      chain: 'base',
      chain_id: 8453,
      token_name: 'USDC',
      token_address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      message: 'Thanks',
    },
    'PUT /api/links/:id': {
      alias: 'Fuzz Fund 2',
      message: 'Hi',
      enabled: true,
      notify_payments: false,
      settings: { a: 'b' },
    },
    'POST /api/users/username': { username: 'fuzzer' },
    'PUT /api/users/notices': { paymentDigest: 'daily' },
    'POST /api/auth/login': { message: 'example.com wants you to sign in', signature: hash32 },
    'POST /api/route-intent/:intentId/receipt': { txHash: hash32 },
    'POST /api/:provider/route': {
      fromChain: 8453,
      toChain: '8453',
      fromToken: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      toToken: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      fromAmount: '1000000',
      fromAddress: evmAddress,
      toAddress: evmAddress,
      slippage: 1,
      linkId: scene.linkId,
    },
    'POST /api/:provider/rpc/:chainId': rpcCall,
    'POST /api/receipts/:intentId/email': { email: 'fuzz@example.com' },
    'POST /api/receipts/rpc/:chainId': rpcCall,
    'POST /api/bundler/:chainId': { ...rpcCall, method: 'eth_supportedEntryPoints' },
    'POST /api/paymaster/:chainId': { ...rpcCall, method: 'pm_getPaymasterStubData', params: [{}] },
    'POST /x402/facilitator/verify': x402Request,
    'POST /x402/facilitator/settle': x402Request,
    'POST /api/solana': { jsonrpc: '2.0', id: 1, method: 'getBalance', params: [evmAddress] },
    'POST /signer/v1/lookup': { email: 'fuzz@example.com' },
    'POST /signer/v1/auth': { ...contact, emailMode: 'magicLink', redirectParams: 'next=%2Fdashboard' },
    'POST /signer/v1/signup': { ...contact, expirationSeconds: 900 },
    'POST /signer/v1/otp': {
      orgId: scene.orgId,
      otpId: uuid,
      otpCode: '123456',
      targetPublicKey: scene.targetPublicKey,
    },
    'POST /signer/v1/magic-link': {
      orgId: scene.orgId,
      token: 'abc',
      targetPublicKey: scene.targetPublicKey,
    },
    'POST /signer/v1/auth-jwt': {
      jwt: 'a.b.c',
      authProvider: 'fuzz',
      targetPublicKey: scene.targetPublicKey,
    },
    'POST /signer/v1/init-otp': { otpType: 'OTP_TYPE_EMAIL', contact: 'fuzz@example.com' },
    'POST /signer/v1/verify-otp': { otpId: uuid, otpCode: '123456' },
    'POST /signer/v1/prepare-oauth': { nonce: 'ab'.repeat(32) },
    'POST /signer/v1/auth-validate-multi-factors': {
      encryptedPayload: 'abc',
      multiFactors: [{ multiFactorId: 'f1', multiFactorCode: '123456' }],
    },
    'POST /signer/v1/passkey-challenge': { a: 'b' },
    'POST /signer/v1/signer-config': { a: 'b' },
  }
  return samples[routeKey]
}

/**
 * The parameters of a stamped call per signer route path (`whoami`, `query/whoami`…): what the
 * session key signs inside `{type, timestampMs, organizationId, parameters}` or, for Turnkey's
 * query paths, beside `organizationId`.
 */
export function getSampleParameters(path: string, scene: FuzzScene): Record<string, unknown> {
  const samples: Record<string, Record<string, unknown>> = {
    'list-auth-methods': { suborgId: scene.orgId },
    'sign-payload': {
      signWith: scene.address,
      payload: hash32,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    },
    'get-activity': { activityId: uuid },
    'export-wallet': { walletId: scene.walletId, targetPublicKey: scene.targetPublicKey },
    'export-wallet-account': { address: scene.address, targetPublicKey: scene.targetPublicKey },
    'update-email-auth': { email: 'new@example.com', verificationToken: 'token' },
    'update-phone-auth': { phone: '+14155550100', verificationToken: 'token' },
    'remove-email-auth': { verificationToken: 'token' },
    'remove-phone-auth': { verificationToken: 'token' },
    'add-authenticator': {
      challenge: 'challenge',
      attestation: {
        credentialId: 'abc',
        clientDataJson: 'e30',
        attestationObject: 'o2M',
        transports: ['usb'],
      },
      authenticatorName: 'Key',
    },
    'remove-authenticator': { authenticatorId: 'abc' },
    'auth-request-multi-factor': { multiFactorType: 'totp' },
    'auth-verify-multi-factor': { multiFactorId: 'f1', multiFactorCode: '123456' },
    'auth-delete-multi-factors': { multiFactorIds: ['f1'] },
    'add-oauth-provider': { oidcToken: 'a.b.c', providerName: 'fuzz' },
    'remove-oauth-provider': { providerId: 'https://issuer.example|sub' },
    'multi-owner-create': { members: [evmAddress], threshold: 1 },
    'public/v1/query/list_wallet_accounts': { walletId: scene.walletId, includeWalletDetails: true },
    'public/v1/query/get_activity': { activityId: uuid },
    'public/v1/submit/sign_raw_payload': {
      signWith: scene.address,
      payload: hash32,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    },
    'public/v1/submit/export_wallet': { walletId: scene.walletId, targetPublicKey: scene.targetPublicKey },
    'public/v1/submit/export_wallet_account': {
      address: scene.address,
      targetPublicKey: scene.targetPublicKey,
    },
  }
  return samples[path] ?? { id: 'x' }
}
