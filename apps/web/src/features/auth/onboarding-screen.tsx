import { ArrowRight, Link2, Share2, Sparkles, Wallet } from 'lucide-react'
import { useNavigate } from 'react-router'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { WalletAddress } from '../../ui/wallet-address'
import { clearNewUser, defaultSignedInPath } from './post-sign-in'
import { useSession } from './session'

const nextSteps = [
  {
    icon: Link2,
    title: 'Create a payment link',
    text: 'Pick the token and network you want to receive, and give the page a name.',
  },
  {
    icon: Share2,
    title: 'Share it',
    text: 'Send the link or show its QR code. Payers use any wallet and any token.',
  },
  {
    icon: Wallet,
    title: 'Get paid to this wallet',
    text: 'Payments arrive at your wallet address. You can export its seed phrase in Settings.',
  },
]

/** /onboarding: the welcome a new payee sees once, right after signing up. */
export function OnboardingScreen() {
  const { user } = useSession()
  const navigate = useNavigate()
  const address = typeof user?.address === 'string' ? user.address : undefined

  const finish = () => {
    clearNewUser()
    void navigate(defaultSignedInPath, { replace: true })
  }

  return (
    <div className="mx-auto w-full max-w-lg px-4 py-8 sm:py-14">
      <Card className="p-6 sm:p-8">
        <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent">
          <Sparkles aria-hidden="true" className="size-6" />
        </span>
        <h1 className="mt-4 font-semibold text-2xl tracking-tight">Welcome to Quick Links</h1>
        <p className="mt-2 text-muted">Your account and your wallet are ready.</p>

        <section aria-labelledby="onboarding-wallet" className="mt-6 rounded-control bg-subtle p-4">
          <h2 id="onboarding-wallet" className="font-medium text-sm">
            Your wallet address
          </h2>
          {address === undefined ? (
            <p className="mt-1 text-muted text-sm">Not available yet.</p>
          ) : (
            <WalletAddress address={address} isMasked={false} className="mt-1" />
          )}
        </section>

        <h2 className="mt-8 font-semibold">What to do next</h2>
        <ol className="mt-4 grid gap-5">
          {nextSteps.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-4">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-control bg-accent-soft text-accent">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <div>
                <p className="font-medium">{title}</p>
                <p className="mt-1 text-muted text-sm">{text}</p>
              </div>
            </li>
          ))}
        </ol>

        <Button className="mt-8 w-full" size="lg" onClick={finish}>
          Continue to dashboard
          <ArrowRight aria-hidden="true" />
        </Button>
      </Card>
    </div>
  )
}
