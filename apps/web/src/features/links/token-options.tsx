import type { RoutingToken } from '@quicklinks/core/api/routing'
import { isSameTokenAddress } from '@quicklinks/core/native-token-address'

/**
 * The receive-token select's options: the chain's tokens, preceded by the draft's own token as a
 * disabled option when it is not among them ('Select a token' when there is none).
 */
export function TokenOptions({
  tokens,
  draftAddress,
  draftName,
}: {
  tokens: readonly RoutingToken[]
  draftAddress: string
  draftName: string
}) {
  const hasCurrent =
    draftAddress.length > 0 && tokens.some((token) => isSameTokenAddress(token.address, draftAddress))
  return (
    <>
      {hasCurrent ? null : (
        <option value={draftAddress.toLowerCase()} disabled>
          {draftAddress.length === 0 ? 'Select a token' : draftName}
        </option>
      )}
      {tokens.map((token) => (
        <option key={token.address} value={token.address.toLowerCase()}>
          {token.symbol}
          {token.name.length > 0 ? ` · ${token.name}` : ''}
        </option>
      ))}
    </>
  )
}
