import { Link2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { ConfirmDeleteDialog } from '../../ui/confirm-delete-dialog'
import { Skeleton } from '../../ui/skeleton'
import { describeAuthError } from '../auth/describe-auth-error'
import {
  getProviderName,
  linkProvider,
  listSocialProviders,
  type SocialProvider,
  unlinkProvider,
} from '../auth/wallet-oauth'
import { SectionMessages } from './section-messages'
import { useStepUp } from './step-up-dialog'
import { useAuthMethods, useInvalidateAuthMethods } from './use-auth-methods'

type LinkedAccount = { providerId: string | null; issuer: string; subject: string; email: string | null }

/**
 * Settings' 'Linked accounts' (docs/signer.md#social-login): the social-login accounts that sign
 * in to this wallet (from list-auth-methods), each with 'Unlink' behind a confirmation, and 'Link
 * {provider}' for every provider the signer offers. The signer refuses to unlink the last way to
 * sign in; its message is shown here. Hidden when no provider is configured and none is linked.
 */
export function LinkedAccountsSection() {
  const { methods, isPending, error, isWalletConnected } = useAuthMethods()
  const invalidate = useInvalidateAuthMethods()
  const [providers, setProviders] = useState<SocialProvider[]>([])
  const [busyId, setBusyId] = useState<string | null>(null)
  const [unlinking, setUnlinking] = useState<LinkedAccount | null>(null)
  const { requestStepUp, stepUpDialog } = useStepUp()
  const [isRemoving, setIsRemoving] = useState(false)
  const [actionError, setActionError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)

  useEffect(() => {
    let isCurrent = true
    listSocialProviders().then(
      (list) => isCurrent && setProviders(list),
      (failure: unknown) => console.error('Could not load the sign-in providers', failure),
    )
    return () => {
      isCurrent = false
    }
  }, [])

  const linked: LinkedAccount[] = methods?.oauthProviders ?? []
  if (providers.length === 0 && linked.length === 0) return null

  const link = async (provider: SocialProvider) => {
    setActionError(null)
    setNotice(null)
    const stepUp = await requestStepUp(`Linking a ${provider.name} account`)
    if (stepUp === null) return
    setBusyId(provider.id)
    try {
      const added = await linkProvider(provider.id, stepUp)
      await invalidate()
      setNotice(`${provider.name} account ${added.email ?? added.subject} is linked.`)
    } catch (failure) {
      setActionError(describeAuthError(failure, `Could not link ${provider.name}. Try again.`))
    } finally {
      setBusyId(null)
    }
  }

  const unlink = async (account: LinkedAccount) => {
    setUnlinking(null)
    setActionError(null)
    setNotice(null)
    const stepUp = await requestStepUp(`Unlinking a ${nameOf(account)} account`)
    if (stepUp === null) return
    setIsRemoving(true)
    try {
      await unlinkProvider({ issuer: account.issuer, subject: account.subject, stepUp })
      await invalidate()
      setNotice(`${nameOf(account)} account unlinked.`)
    } catch (failure) {
      setActionError(describeAuthError(failure, 'Could not unlink that account. Try again.'))
    } finally {
      setIsRemoving(false)
    }
  }

  return (
    <Card className="mt-4 p-6">
      <section aria-labelledby="linked-accounts-heading">
        <h2 id="linked-accounts-heading" className="font-semibold">
          Linked accounts
        </h2>
        <p className="mt-1 text-muted text-sm">Accounts at other services that sign you in to this wallet.</p>
        {!isWalletConnected ? null : isPending ? (
          <Skeleton className="mt-4 h-10 w-full" />
        ) : (
          <>
            {linked.length === 0 ? (
              <p className="mt-4 text-muted text-sm">No linked accounts yet.</p>
            ) : (
              <ul className="mt-4 divide-y divide-border" aria-label="Linked accounts">
                {linked.map((account) => (
                  <li
                    key={`${account.issuer}|${account.subject}`}
                    className="flex min-h-14 flex-wrap items-center gap-x-3 gap-y-1 py-2"
                  >
                    <Link2 aria-hidden="true" className="size-5 shrink-0 text-muted" />
                    <div className="min-w-0 flex-1">
                      <p className="font-medium text-sm">{nameOf(account)}</p>
                      <p className="break-all text-muted text-sm">{account.email ?? account.subject}</p>
                    </div>
                    <Button
                      variant="secondary"
                      size="compact"
                      onClick={() => setUnlinking(account)}
                      aria-label={`Unlink ${nameOf(account)} account ${account.email ?? account.subject}`}
                    >
                      Unlink
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            {providers.length === 0 ? null : (
              <div className="mt-4 flex flex-wrap gap-2">
                {providers.map((provider) => (
                  <Button
                    key={provider.id}
                    variant="secondary"
                    size="compact"
                    isBusy={busyId === provider.id}
                    disabled={busyId !== null && busyId !== provider.id}
                    onClick={() => void link(provider)}
                  >
                    Link {provider.name}
                  </Button>
                ))}
              </div>
            )}
          </>
        )}
        <SectionMessages
          loadError={
            error !== null && isWalletConnected
              ? describeAuthError(error, 'Could not load your linked accounts. Try again.')
              : null
          }
          actionError={actionError}
          notice={notice}
        />
      </section>
      {stepUpDialog}
      <ConfirmDeleteDialog
        open={unlinking !== null}
        onOpenChange={(open) => {
          if (!open) setUnlinking(null)
        }}
        title="Unlink account"
        description={
          unlinking === null
            ? ''
            : `You will no longer be able to sign in with ${nameOf(unlinking)} account ${unlinking.email ?? unlinking.subject}.`
        }
        isDeleting={isRemoving}
        onConfirm={() => (unlinking === null ? undefined : unlink(unlinking))}
      />
    </Card>
  )
}

function nameOf(account: LinkedAccount): string {
  return account.providerId === null ? 'Linked' : getProviderName(account.providerId)
}
