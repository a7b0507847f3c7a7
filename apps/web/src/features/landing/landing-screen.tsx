import {
  ArrowRight,
  Check,
  Coins,
  Link2,
  type LucideIcon,
  Server,
  Share2,
  ShieldCheck,
  Wallet,
} from 'lucide-react'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { useAuthModalStore } from '../auth/auth-modal-store'

type Feature = { icon: LucideIcon; title: string; text: string }

const payeeFeatures: Feature[] = [
  {
    icon: ShieldCheck,
    title: 'Sign in with e-mail or phone',
    text: 'A wallet is created for you on first sign-in. No seed phrase to write down before you start.',
  },
  {
    icon: Link2,
    title: 'One link per purpose',
    text: 'Choose the token and network you want to receive, add a message, and your page is live.',
  },
  {
    icon: Share2,
    title: 'Share it anywhere',
    text: 'Copy the link or show its QR code. Turn links on and off, edit them, mark favourites.',
  },
]

const payerFeatures: Feature[] = [
  {
    icon: Wallet,
    title: 'Any EVM wallet',
    text: 'MetaMask, Coinbase Wallet, Rabby, WalletConnect and more. No account, no sign-up.',
  },
  {
    icon: Coins,
    title: 'Any token, any network',
    text: 'Pay with what you hold. The payment is swapped and bridged so the receiver gets exactly their token.',
  },
  {
    icon: Check,
    title: 'Clear from start to finish',
    text: 'See the amount, the route and the receiver before you confirm, then follow each step to completion.',
  },
]

/** The landing page: what Quick Links does for payees and payers, and how to run it yourself. */
export function LandingScreen() {
  const openAuthModal = useAuthModalStore((state) => state.open)
  return (
    <div className="w-full">
      <section className="mx-auto grid max-w-5xl items-center gap-12 px-4 pt-12 pb-16 sm:px-6 md:grid-cols-[1.1fr_1fr] md:pt-20 md:pb-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-border bg-surface px-3 py-1 font-medium text-muted text-xs">
            <Server aria-hidden="true" className="size-3.5" />
            Open source · Self-hostable
          </p>
          <h1 className="mt-5 text-balance font-semibold text-4xl tracking-tight sm:text-5xl">
            Get paid in crypto with a simple link.
          </h1>
          <p className="mt-5 max-w-xl text-pretty text-lg text-muted">
            Create a payment link in a minute and share it anywhere. Payers use any wallet and any token on
            any EVM network; you receive the token you chose, on the network you chose.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Button size="lg" onClick={() => openAuthModal()}>
              Get started
              <ArrowRight aria-hidden="true" />
            </Button>
            <Button asChild size="lg" variant="secondary">
              <a href="#how-it-works">How it works</a>
            </Button>
          </div>
        </div>
        <PayPreview />
      </section>

      <section
        id="how-it-works"
        aria-labelledby="how-it-works-title"
        className="border-border border-t bg-surface"
      >
        <div className="mx-auto max-w-5xl px-4 py-16 sm:px-6">
          <h2 id="how-it-works-title" className="font-semibold text-2xl tracking-tight sm:text-3xl">
            How it works
          </h2>
          <div className="mt-10 grid gap-10 md:grid-cols-2">
            <FeatureList
              title="For payees"
              subtitle="You create the link and receive the money."
              items={payeeFeatures}
            />
            <FeatureList
              title="For payers"
              subtitle="Open the link, connect a wallet, pay."
              items={payerFeatures}
            />
          </div>
        </div>
      </section>

      <section aria-labelledby="self-host-title" className="mx-auto max-w-5xl px-4 py-16 sm:px-6">
        <Card className="grid gap-8 p-6 sm:p-8 md:grid-cols-[1fr_auto] md:items-center">
          <div>
            <h2 id="self-host-title" className="font-semibold text-2xl tracking-tight">
              Run it on your own server
            </h2>
            <p className="mt-3 max-w-xl text-muted">
              Quick Links is open source. One server runs the app, the API and the embedded-wallet signer,
              with an embedded database by default or your own Postgres. Your keys, your data, your domain.
            </p>
          </div>
          <pre className="overflow-x-auto rounded-control bg-subtle px-4 py-3 font-mono text-sm">
            <code>npm install{'\n'}npm start</code>
          </pre>
        </Card>
      </section>
    </div>
  )
}

function FeatureList({ title, subtitle, items }: { title: string; subtitle: string; items: Feature[] }) {
  return (
    <div>
      <h3 className="font-semibold text-lg">{title}</h3>
      <p className="mt-1 text-muted text-sm">{subtitle}</p>
      <ul className="mt-6 grid gap-6">
        {items.map(({ icon: Icon, title: itemTitle, text }) => (
          <li key={itemTitle} className="flex gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-control bg-accent-soft text-accent">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <div>
              <p className="font-medium">{itemTitle}</p>
              <p className="mt-1 text-muted text-sm">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** An illustration of a pay page, so a first-time visitor sees what a payer sees. */
function PayPreview() {
  return (
    <figure aria-label="Example of a payment page" className="mx-auto w-full max-w-sm">
      <Card className="p-6" aria-hidden="true">
        <div className="flex items-center gap-3">
          <span className="flex size-11 items-center justify-center rounded-full bg-accent-soft font-semibold text-accent">
            AS
          </span>
          <div>
            <p className="text-muted text-xs">Payment to</p>
            <p className="font-semibold">Ada's Studio</p>
          </div>
        </div>
        <p className="mt-5 rounded-control bg-subtle px-4 py-3 text-muted text-sm">
          “Thanks for supporting!”
        </p>
        <dl className="mt-5 grid gap-3 text-sm">
          <div className="flex justify-between">
            <dt className="text-muted">Receives</dt>
            <dd className="font-medium">USDC on Base</dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-muted">You pay with</dt>
            <dd className="font-medium">Any token, any EVM network</dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-muted">Receiver</dt>
            <dd className="font-mono">0x71C7…976F</dd>
          </div>
        </dl>
        <div className="mt-6 flex min-h-11 items-center justify-center rounded-control bg-accent font-medium text-accent-fg text-sm">
          Pay
        </div>
      </Card>
      <figcaption className="mt-3 text-center text-muted text-xs">What your payers see</figcaption>
    </figure>
  )
}
