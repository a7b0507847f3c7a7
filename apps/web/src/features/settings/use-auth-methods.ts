import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { listWalletAuthMethods, useWalletStatus, type WalletAuthMethods } from '../auth/wallet-session'

/**
 * The signed-in account's sign-in methods (docs/signer.md#list-auth-methods): its e-mail, phone,
 * passkeys and linked providers, read through the wallet's stamped `list-auth-methods`. Three
 * layers: `listWalletAuthMethods` (plain function), `authMethodsQueryOptions` (query options),
 * `useAuthMethods` (thin hook). Every Settings section reads this one query and, after a change,
 * calls `useInvalidateAuthMethods()`.
 */

export const authMethodKeys = {
  all: ['auth-methods'] as const,
  list: () => ['auth-methods', 'list'] as const,
}

/** Fresh for 30 s; a failure is not retried (a refused session is not going to get better). */
export function authMethodsQueryOptions(list: () => Promise<WalletAuthMethods> = listWalletAuthMethods) {
  return queryOptions({
    queryKey: authMethodKeys.list(),
    queryFn: () => list(),
    staleTime: 30_000,
    retry: false,
    refetchOnWindowFocus: false,
  })
}

export type AuthMethodsState = {
  methods: WalletAuthMethods | undefined
  /** True while the first answer is awaited (also while the wallet's own state loads). */
  isPending: boolean
  error: Error | null
  /** False once the wallet session has ended: nothing can be read or changed until a new sign-in. */
  isWalletConnected: boolean
  refetch: () => void
}

/** The account's sign-in methods, read once the wallet is connected. */
export function useAuthMethods(): AuthMethodsState {
  const walletStatus = useWalletStatus()
  const isWalletConnected = walletStatus === 'CONNECTED'
  const query = useQuery({ ...authMethodsQueryOptions(), enabled: isWalletConnected })
  const { refetch } = query
  return {
    methods: query.data,
    isPending: walletStatus === 'INITIALIZING' || (isWalletConnected && query.isPending),
    error: query.error,
    isWalletConnected: isWalletConnected || walletStatus === 'INITIALIZING',
    refetch: useCallback(() => void refetch(), [refetch]),
  }
}

/** Marks the sign-in methods stale, so every section shows the account as it is after a change. */
export function useInvalidateAuthMethods(): () => Promise<void> {
  const queryClient = useQueryClient()
  return useCallback(() => queryClient.invalidateQueries({ queryKey: authMethodKeys.all }), [queryClient])
}
