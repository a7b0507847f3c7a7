import { SignInCard } from './sign-in-card'

/**
 * /login. The embedded-wallet sign-in arrives with the wallet SDK; until then the card shows its
 * sections disabled rather than pretending to sign anyone in.
 */
export function LoginScreen() {
  return (
    <div className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:py-16">
      <SignInCard />
    </div>
  )
}
