import { useCallback, useState } from 'react'
import { useConfig, useConnection } from 'wagmi'
import { switchChain } from 'wagmi/actions'

/**
 * Asks the wallet to switch to a chain unless it is on it already; `switchingChainId` is the chain
 * being switched to meanwhile. Rejects with the wallet's error when the switch fails.
 */
export function useEnsureChain(): {
  ensureChain: (chainId: number) => Promise<void>
  switchingChainId: number | null
} {
  const config = useConfig()
  const connection = useConnection()
  const [switchingChainId, setSwitchingChainId] = useState<number | null>(null)
  const ensureChain = useCallback(
    async (chainId: number) => {
      if (connection.chainId === chainId) return
      setSwitchingChainId(chainId)
      try {
        // wagmi's injected connector adds the chain on 4902 (with the catalogue's RPC URL) and retries.
        await switchChain(config, { chainId })
      } finally {
        setSwitchingChainId(null)
      }
    },
    [config, connection.chainId],
  )
  return { ensureChain, switchingChainId }
}
