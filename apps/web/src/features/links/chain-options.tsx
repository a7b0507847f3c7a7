import type { RoutingChain } from '@quicklinks/core/api/routing'

/**
 * The receive-chain select's options: the offered chains, preceded by the draft's own chain as a
 * disabled option when it is not among them ('Select a chain' when there is none).
 */
export function ChainOptions({
  chains,
  draftChainId,
  draftChain,
}: {
  chains: readonly RoutingChain[]
  draftChainId: number | null
  draftChain: string
}) {
  const hasCurrent = chains.some((chain) => chain.chainId === draftChainId)
  return (
    <>
      {hasCurrent ? null : (
        <option value={draftChainId === null ? '' : String(draftChainId)} disabled>
          {draftChainId === null || draftChain.length === 0 ? 'Select a chain' : draftChain}
        </option>
      )}
      {chains.map((chain) => (
        <option key={chain.chainId} value={String(chain.chainId)}>
          {chain.networkName}
        </option>
      ))}
    </>
  )
}
