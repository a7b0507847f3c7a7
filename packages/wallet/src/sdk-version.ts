/** The SDK's version, sent with every signer call so the signer can tell SDK releases apart. */
export const sdkVersion = '0.1.0'

/** The header that carries it. */
export const sdkVersionHeader = 'x-quicklinks-sdk-version'
