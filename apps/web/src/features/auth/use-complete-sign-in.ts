import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { getSignedInTarget, markNewUser, onboardingPath, usePostSignInStore } from './post-sign-in'
import { sessionKeys } from './session'
import { signInWithWallet } from './sign-in-with-wallet'
import { getWalletAccount } from './wallet-session'

export type CompleteSignInOptions = {
  isNewUser: boolean
  /** Stay on the current screen instead of going to /onboarding or /dashboard. */
  stay?: boolean
}

/**
 * Turns a connected embedded wallet into an app session: SIWE login with the wallet's account,
 * then the session query gets the user and the app goes to /onboarding (new user), `?next=` or
 * /dashboard. Rejects when the wallet cannot sign or the server refuses the login.
 */
export function useCompleteSignIn(): (options: CompleteSignInOptions) => Promise<void> {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const location = useLocation()
  return useCallback(
    async ({ isNewUser, stay = false }: CompleteSignInOptions) => {
      const account = await getWalletAccount()
      const user = await signInWithWallet(account)
      if (stay) {
        queryClient.setQueryData(sessionKeys.me(), user)
        return
      }
      const next = new URLSearchParams(location.search).get('next')
      const target = isNewUser ? onboardingPath : getSignedInTarget(next)
      if (isNewUser) markNewUser(typeof user.address === 'string' ? user.address : account.address)
      // The target first: the signed-out guards send a user who just became signed in there.
      usePostSignInStore.getState().setTarget(target)
      queryClient.setQueryData(sessionKeys.me(), user)
      await navigate(target, { replace: true })
      void queryClient.invalidateQueries({ queryKey: sessionKeys.me() })
    },
    [queryClient, navigate, location.search],
  )
}
