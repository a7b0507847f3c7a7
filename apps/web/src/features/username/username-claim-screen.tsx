import { AppError } from '@quicklinks/core/app-error'
import { useQueryClient } from '@tanstack/react-query'
import { ArrowLeft, AtSign, Search } from 'lucide-react'
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { type ApiClient, api } from '../../lib/api-client'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { toast } from '../../ui/use-toast'
import { useAuthModalStore } from '../auth/auth-modal-store'
import { sessionKeys, useSession } from '../auth/session'
import { AvailabilityMessage } from './availability-message'
import { readDesiredUsername, writeDesiredUsername } from './desired-username-storage'
import { ReservedName } from './reserved-name'
import { useUsernameAvailability } from './use-username-availability'
import { claimUsername } from './username-api'

export type UsernameClaimScreenProps = {
  /** Tests pass a client bound to their server. */
  client?: ApiClient
  /** Tests fix the date the suggestions are built from. */
  now?: () => Date
}

/**
 * /username, 'Claim Your Username' (docs/product.md#username): search a name (350 ms
 * after typing, or at once on Enter or the search button), see whether it is free or pick a
 * suggestion, tick the terms and 'Claim Now'. Signed out, Claim Now opens the sign-in modal and the
 * saved name (`tw_desired_username`) is claimed once the sign-in completes, on this screen.
 */
export function UsernameClaimScreen({ client = api, now }: UsernameClaimScreenProps) {
  const session = useSession()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const location = useLocation()
  const openAuthModal = useAuthModalStore((state) => state.open)
  const isAuthModalOpen = useAuthModalStore((state) => state.isOpen)
  const { availability, lookUp } = useUsernameAvailability(client, now)

  const [query, setQuery] = useState(() => readDesiredUsername() ?? '')
  const [selected, setSelected] = useState<string | null>(null)
  const [hasAgreed, setHasAgreed] = useState(false)
  const [isWaitingForSignIn, setIsWaitingForSignIn] = useState(false)
  const [isClaiming, setIsClaiming] = useState(false)
  const [claimError, setClaimError] = useState<string | null>(null)
  const searchId = useId()
  const termsId = useId()
  const hintId = useId()

  // A name saved before (e.g. the sign-in reloaded the page) is looked up again on arrival.
  const hasCheckedSaved = useRef(false)
  useEffect(() => {
    if (hasCheckedSaved.current) return
    hasCheckedSaved.current = true
    if (query.length > 0) lookUp(query, { immediate: true })
  }, [query, lookUp])

  useEffect(() => {
    switch (availability.status) {
      case 'available':
        setSelected(availability.name)
        writeDesiredUsername(availability.name)
        return
      case 'taken':
        setSelected(null)
        writeDesiredUsername(null)
        return
      case 'checking':
        return
      case 'idle':
      case 'invalid':
      case 'error':
        setSelected(null)
        return
      default: {
        const unknownStatus: never = availability
        return unknownStatus
      }
    }
  }, [availability])

  const claim = useCallback(
    async (name: string) => {
      setIsClaiming(true)
      setClaimError(null)
      try {
        const user = await claimUsername(name, client)
        writeDesiredUsername(null)
        queryClient.setQueryData(sessionKeys.me(), user)
        void queryClient.invalidateQueries({ queryKey: sessionKeys.me() })
        toast({ title: 'Username claimed', description: `You are now @${name}.` })
        await navigate('/settings')
      } catch (error) {
        setClaimError(
          error instanceof AppError ? error.userMessage : 'Could not claim the username. Please try again.',
        )
      } finally {
        setIsClaiming(false)
      }
    },
    [client, queryClient, navigate],
  )

  // After the sign-in that Claim Now opened: claim the saved name. Closing the modal without
  // signing in gives the button back.
  useEffect(() => {
    if (!isWaitingForSignIn) return
    if (session.isSignedIn) {
      setIsWaitingForSignIn(false)
      const name = readDesiredUsername() ?? selected
      if (name !== null) void claim(name)
      return
    }
    if (!isAuthModalOpen) setIsWaitingForSignIn(false)
  }, [isWaitingForSignIn, session.isSignedIn, isAuthModalOpen, selected, claim])

  const onClaimNow = () => {
    if (selected === null || !hasAgreed) return
    if (session.isSignedIn) {
      void claim(selected)
      return
    }
    writeDesiredUsername(selected)
    setIsWaitingForSignIn(true)
    // 'stay': the sign-in keeps this screen, so the claim can finish here.
    openAuthModal('stay')
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    lookUp(query, { immediate: true })
  }

  const onPickSuggestion = (name: string) => {
    setQuery(name)
    setSelected(name)
    writeDesiredUsername(name)
    setClaimError(null)
    // Selected at once; the lookup confirms it (or offers others if someone took it meanwhile).
    lookUp(name, { immediate: true })
  }

  const goBack = () => {
    // A visitor who opened /username directly has no page of ours to go back to.
    if (location.key === 'default') void navigate(session.isSignedIn ? '/dashboard' : '/')
    else void navigate(-1)
  }

  const isWorking = isWaitingForSignIn || isClaiming
  const canClaim = selected !== null && hasAgreed && !isWorking

  return (
    <div className="mx-auto w-full max-w-md px-4 py-6 sm:py-10">
      <div className="flex items-center gap-2">
        <Button variant="ghost" size="icon" aria-label="Back" className="-ml-3" onClick={goBack}>
          <ArrowLeft aria-hidden="true" />
        </Button>
        <h1 className="font-semibold text-2xl tracking-tight">Claim Your Username</h1>
      </div>
      <p className="mt-1 text-muted text-sm">A short name people can find you by and pay you at.</p>

      <Card className="mt-6 p-5 sm:p-6">
        <search>
          <form onSubmit={onSubmit} className="flex items-center gap-2">
            <label htmlFor={searchId} className="sr-only">
              Search for your 0x Username
            </label>
            <div className="relative min-w-0 flex-1">
              <AtSign
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
              />
              <input
                id={searchId}
                type="search"
                value={query}
                placeholder="Search for your 0x Username"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                maxLength={33}
                onChange={(event) => {
                  setQuery(event.target.value)
                  setClaimError(null)
                  lookUp(event.target.value)
                }}
                className="min-h-11 w-full rounded-control border border-border bg-surface py-2 pr-3 pl-9 text-base placeholder:text-muted sm:text-sm"
              />
            </div>
            <Button type="submit" size="icon" aria-label="Search">
              <Search aria-hidden="true" />
            </Button>
          </form>
        </search>

        <div aria-live="polite" className="mt-3 min-h-6 text-sm">
          <AvailabilityMessage availability={availability} onPick={onPickSuggestion} />
        </div>

        {selected === null ? null : <ReservedName key={selected} name={selected} />}

        <div className="mt-5 flex items-start gap-3">
          <input
            id={termsId}
            type="checkbox"
            checked={hasAgreed}
            onChange={(event) => setHasAgreed(event.target.checked)}
            className="mt-0.5 size-5 shrink-0 accent-accent"
          />
          <label htmlFor={termsId} className="text-sm leading-6">
            I agree to the Terms of Service and the Privacy Policy.
          </label>
        </div>

        <Button
          size="lg"
          className="mt-5 w-full"
          disabled={!canClaim}
          isBusy={isWorking}
          aria-describedby={canClaim || isWorking ? undefined : hintId}
          onClick={onClaimNow}
        >
          {isWorking ? 'Opening…' : 'Claim Now'}
        </Button>
        {canClaim || isWorking ? null : (
          <p id={hintId} className="mt-2 text-center text-muted text-xs">
            {selected === null ? 'Find an available name first.' : 'Tick the box to accept the terms.'}
          </p>
        )}
        {claimError === null ? null : (
          <p role="alert" className="mt-3 text-center text-danger text-sm">
            {claimError}
          </p>
        )}
      </Card>
    </div>
  )
}
