/**
 * A refusal the bundler relay or the sponsor service answers as a JSON-RPC error (docs/api.md#bundler,
 * docs/api.md#paymaster): `code` and `data` as JSON-RPC carries them, and the HTTP status of the
 * answer (200 for a sponsor refusal, as ERC-7677 clients read JSON-RPC errors; 403 for a sender that
 * is not the user's). Routes turn it into `{ jsonrpc, id, error }`; services throw it.
 */
export class JsonRpcError extends Error {
  override readonly name = 'JsonRpcError'
  readonly code: number
  readonly data: Record<string, unknown> | undefined
  readonly httpStatus: number

  constructor(options: {
    code: number
    message: string
    data?: Record<string, unknown>
    httpStatus?: number
  }) {
    super(options.message)
    this.code = options.code
    this.data = options.data
    this.httpStatus = options.httpStatus ?? 200
  }

  /** The `error` member of a JSON-RPC response. */
  toJson(): { code: number; message: string; data?: Record<string, unknown> } {
    return { code: this.code, message: this.message, ...(this.data === undefined ? {} : { data: this.data }) }
  }
}

/** JSON-RPC's own codes, and ours for a refused sender or sponsorship (ERC-7677 leaves them to the service). */
export const jsonRpcErrorCodes = {
  invalidParams: -32602,
  methodNotFound: -32601,
  /** The operation's sender is not one of the signed-in user's accounts. */
  notYourAccount: -32003,
  /** The sponsor service will not pay for this operation; `data.reason` says why. */
  sponsorRefused: -32001,
} as const
