import { lazy } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router'
import { InvoiceScreen } from '../features/invoices/invoice-screen'
import { LandingScreen } from '../features/landing/landing-screen'
import { PayScreen } from '../features/pay/pay-screen'
import { RedirectIfSignedIn, RequireNewUser, RequireSession } from './guards'
import { NotFoundScreen } from './not-found-screen'
import { RootLayout } from './root-layout'
import { RouteErrorScreen } from './route-error-screen'
import { SlugRedirect } from './slug-redirect'

// The two public screens a visitor lands on (/ and /pay) are small and ship with the chrome, so
// their first paint needs no second round trip. Everything behind sign-in loads on demand.
const LoginScreen = lazy(() => import('./login-screen').then((module) => ({ default: module.LoginScreen })))
const OnboardingScreen = lazy(() =>
  import('../features/auth/onboarding-screen').then((module) => ({ default: module.OnboardingScreen })),
)
const DashboardScreen = lazy(() =>
  import('../features/links/dashboard-screen').then((module) => ({ default: module.DashboardScreen })),
)
const PaymentsScreen = lazy(() =>
  import('../features/payments/payments-screen').then((module) => ({ default: module.PaymentsScreen })),
)
const DevMailScreen = lazy(() =>
  import('../features/dev/dev-mail-screen').then((module) => ({ default: module.DevMailScreen })),
)
const UsernameClaimScreen = lazy(() =>
  import('../features/username/username-claim-screen').then((module) => ({
    default: module.UsernameClaimScreen,
  })),
)
const PayStatusScreen = lazy(() =>
  import('../features/pay-status/pay-status-screen').then((module) => ({ default: module.PayStatusScreen })),
)
const DepositStatusScreen = lazy(() =>
  import('../features/pay-status/deposit-status-screen').then((module) => ({
    default: module.DepositStatusScreen,
  })),
)
const ReceiptScreen = lazy(() =>
  import('../features/receipts/receipt-screen').then((module) => ({ default: module.ReceiptScreen })),
)
const SettingsScreen = lazy(() =>
  import('../features/settings/settings-screen').then((module) => ({ default: module.SettingsScreen })),
)

/**
 * The app's routes (docs/product.md#routes). Static segments outrank `:slug`, so only a top-level path
 * that is no app route reaches the pay-page redirect.
 */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorScreen />,
    children: [
      {
        index: true,
        element: (
          <RedirectIfSignedIn>
            <LandingScreen />
          </RedirectIfSignedIn>
        ),
      },
      {
        path: 'login',
        element: (
          <RedirectIfSignedIn>
            <LoginScreen />
          </RedirectIfSignedIn>
        ),
      },
      {
        // /onboarding is neither simply protected nor simply signed-out-only: it is for a user who
        // has just signed up (docs/product.md#onboarding, docs/decisions/0007-onboarding-guard.md).
        path: 'onboarding',
        element: (
          <RequireNewUser>
            <OnboardingScreen />
          </RequireNewUser>
        ),
      },
      {
        path: 'dashboard',
        element: (
          <RequireSession>
            <DashboardScreen />
          </RequireSession>
        ),
      },
      {
        // The Payments tab; ?link={id} is one link's payments (docs/product.md#payments-tab).
        path: 'dashboard/payments',
        element: (
          <RequireSession>
            <PaymentsScreen />
          </RequireSession>
        ),
      },
      {
        path: 'settings',
        element: (
          <RequireSession>
            <SettingsScreen />
          </RequireSession>
        ),
      },
      // Public: a visitor picks a name first and signs in from 'Claim Now'.
      { path: 'username', element: <UsernameClaimScreen /> },
      { path: 'pay/:alias_slug', element: <PayScreen /> },
      // Public: the 32-byte random intent id is the capability (docs/product.md#status-page).
      { path: 'pay/status/:intentId', element: <PayStatusScreen /> },
      // Public: the deposit's random UUID is the capability (docs/product.md#deposit-status-page).
      { path: 'pay/deposits/:depositId', element: <DepositStatusScreen /> },
      // Public: a payment's receipt, checked against the chain in the browser (docs/product.md#receipts).
      { path: 'pay/receipt/:intentId', element: <ReceiptScreen /> },
      { path: 'pay/:alias_slug/:invoice_id', element: <InvoiceScreen /> },
      { path: 'dev/mail', element: <DevMailScreen /> },
      { path: ':slug', element: <SlugRedirect /> },
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
]

/** Call after `captureAuthReturnParams`, so the router starts from the cleaned address. */
export function createAppRouter() {
  return createBrowserRouter(appRoutes)
}
