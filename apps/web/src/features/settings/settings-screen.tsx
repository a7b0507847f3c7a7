import { KeyRound, LogOut, Monitor, Moon, Sun } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { type ThemePreference, themePreferences, useThemeStore } from '../../lib/theme-store'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { classNames } from '../../ui/class-names'
import { WalletAddress } from '../../ui/wallet-address'
import { useLogout, useSession } from '../auth/session'
import { useWalletSolanaAddress } from '../auth/wallet-session'
import { ApiKeysSection } from './api-keys-section'
import { ExportWalletDialog } from './export-wallet-dialog'
import { LinkedAccountsSection } from './linked-accounts-section'
import { NoticesSection } from './notices-section'
import { PasskeysSection } from './passkeys-section'
import { SignInMethodsSection } from './sign-in-methods-section'
import { SmartWalletSection } from './smart-wallet-section'
import { TwoFactorSection } from './two-factor-section'
import { useAuthMethods } from './use-auth-methods'
import { WebhooksSection } from './webhooks-section'

const themeOptions: Record<ThemePreference, { label: string; icon: typeof Sun }> = {
  light: { label: 'Light', icon: Sun },
  dark: { label: 'Dark', icon: Moon },
  system: { label: 'System', icon: Monitor },
}

/**
 * /settings, the Settings tab: the account and its wallet addresses (EVM, Solana; copy), sign-in
 * methods, e-mail notices, API keys, export, appearance, logout.
 */
export function SettingsScreen() {
  const { user } = useSession()
  const logout = useLogout()
  const [isExportOpen, setIsExportOpen] = useState(false)
  const preference = useThemeStore((state) => state.preference)
  const setPreference = useThemeStore((state) => state.setPreference)
  const address = typeof user?.address === 'string' ? user.address : undefined
  // The signer user's Solana account; an account from before Solana addresses has none.
  const solanaAddress = useWalletSolanaAddress()
  // The signer's answer wins once read: the app session learns a changed e-mail only at the next sign-in.
  const { methods } = useAuthMethods()
  const sessionEmail = typeof user?.email === 'string' ? user.email : undefined
  const email = methods === undefined ? sessionEmail : (methods.email ?? undefined)
  const username = typeof user?.username === 'string' && user.username.length > 0 ? user.username : undefined

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-10">
      <h1 className="font-semibold text-2xl tracking-tight">Settings</h1>

      <Card className="mt-6 p-6">
        <h2 className="font-semibold">Account</h2>
        <dl className="mt-4 grid gap-3 text-sm">
          <div className="flex min-h-11 flex-wrap items-center justify-between gap-2">
            <dt className="text-muted">Username</dt>
            <dd className="flex items-center gap-1 break-all">
              {username === undefined ? (
                <Link
                  to="/username"
                  className="-mr-2 inline-flex min-h-11 items-center rounded-control px-2 font-medium text-accent hover:underline"
                >
                  Claim a username
                </Link>
              ) : (
                <>
                  <span className="font-medium">@{username}</span>
                  <Link
                    to="/username"
                    aria-label="Change username"
                    className="-mr-2 inline-flex min-h-11 items-center rounded-control px-2 text-accent hover:underline"
                  >
                    Change
                  </Link>
                </>
              )}
            </dd>
          </div>
          <div className="flex min-h-11 flex-wrap items-center justify-between gap-2">
            <dt className="text-muted">Email</dt>
            <dd className="break-all">{email ?? 'Not set'}</dd>
          </div>
          <div className="flex min-h-11 flex-wrap items-center justify-between gap-x-2">
            <dt className="text-muted">Wallet address</dt>
            <dd>
              {address === undefined ? (
                'Not available'
              ) : (
                <WalletAddress address={address} className="-mr-2" />
              )}
            </dd>
          </div>
          {solanaAddress === null || solanaAddress.length === 0 ? null : (
            <div className="flex min-h-11 flex-wrap items-center justify-between gap-x-2">
              <dt className="text-muted">Solana address</dt>
              <dd>
                <WalletAddress
                  address={solanaAddress}
                  copyLabel="Copy Solana address"
                  copiedDescription="Your Solana address has been copied to your clipboard."
                  className="-mr-2"
                />
              </dd>
            </div>
          )}
        </dl>
      </Card>

      <SignInMethodsSection />

      <PasskeysSection />

      <LinkedAccountsSection />

      <TwoFactorSection />

      <NoticesSection />

      <ApiKeysSection />

      <WebhooksSection />

      <SmartWalletSection>
        <p className="text-muted text-sm">
          Your wallet's seed phrase or private key lets you use it in another wallet app.
        </p>
        <Button variant="secondary" className="mt-4" onClick={() => setIsExportOpen(true)}>
          <KeyRound aria-hidden="true" />
          Export wallet
        </Button>
        <ExportWalletDialog open={isExportOpen} onOpenChange={setIsExportOpen} />
      </SmartWalletSection>

      <Card className="mt-4 p-6">
        <fieldset>
          <legend className="font-semibold">Appearance</legend>
          <div className="mt-4 grid grid-cols-3 gap-2">
            {themePreferences.map((option) => {
              const { label, icon: Icon } = themeOptions[option]
              return (
                <label
                  key={option}
                  className={classNames(
                    'flex min-h-11 cursor-pointer flex-col items-center justify-center gap-1 rounded-control border px-2 py-3 text-sm',
                    'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring has-[:focus-visible]:outline-offset-2',
                    preference === option
                      ? 'border-accent bg-accent-soft text-fg'
                      : 'border-border hover:bg-subtle',
                  )}
                >
                  <input
                    type="radio"
                    name="theme"
                    value={option}
                    checked={preference === option}
                    onChange={() => setPreference(option)}
                    className="sr-only"
                  />
                  <Icon aria-hidden="true" className="size-5" />
                  {label}
                </label>
              )
            })}
          </div>
        </fieldset>
      </Card>

      <div className="mt-8 flex justify-center">
        <Button variant="ghost" className="text-danger" onClick={() => void logout()}>
          <LogOut aria-hidden="true" />
          Logout
        </Button>
      </div>
    </div>
  )
}
