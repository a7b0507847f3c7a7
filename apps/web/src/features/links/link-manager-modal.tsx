import { AppError } from '@quicklinks/core/app-error'
import { CircleCheck, CircleHelp } from 'lucide-react'
import { Tooltip } from 'radix-ui'
import { type Dispatch, type ReactNode, useEffect, useId, useMemo, useState } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { Dialog, DialogDescription, DialogTitle } from '../../ui/dialog'
import {
  type Chain,
  isSameTokenAddress,
  selectOfferedChains,
  selectOfferedTokens,
  type Token,
} from '../routing/catalogue'
import { useChains, useTokens } from '../routing/use-catalogue'
import { CopyLinkField } from './copy-link-field'
import { fireConfetti } from './fire-confetti'
import { buildPublicLinkUrl } from './link'
import {
  type DraftError,
  type DraftFieldName,
  filterChainsForType,
  filterTokensForType,
  getActiveLinkType,
  getDraftSlug,
  isChainLocked,
  type LinkModalAction,
  type LinkModalState,
} from './link-modal-state'
import { useCreateLink, useUpdateLink } from './link-queries'
import { linkTypes, maxShownLinkTypes } from './link-types'
import { type DraftProblems, messageMaxLength, validateLinkDraft } from './validate-link-draft'

/** SPEC §2: the success flag clears after 3 s. */
export const linkReadyFlagMs = 3000

export type LinkManagerModalProps = { state: LinkModalState; dispatch: Dispatch<LinkModalAction> }

/**
 * The link manager (SPEC §2 "Link manager modal"): type → details → ready, over the reducer in
 * link-modal-state.ts. Closing resets page, edit flag, draft and error.
 */
export function LinkManagerModal({ state, dispatch }: LinkManagerModalProps) {
  const { page } = state
  useEffect(() => {
    if (!state.isSuccess) return
    const timeout = setTimeout(() => dispatch({ type: 'clearSuccess' }), linkReadyFlagMs)
    return () => clearTimeout(timeout)
  }, [state.isSuccess, dispatch])

  return (
    <Dialog
      open={page.name !== 'closed'}
      onOpenChange={(open) => {
        if (!open) dispatch({ type: 'close' })
      }}
    >
      <LinkManagerPage state={state} dispatch={dispatch} />
    </Dialog>
  )
}

function LinkManagerPage({ state, dispatch }: LinkManagerModalProps) {
  const { page } = state
  switch (page.name) {
    case 'closed':
      return null
    case 'type':
      return <LinkTypePage typeId={state.typeId} dispatch={dispatch} />
    case 'details':
      return <LinkDetailsPage state={state} dispatch={dispatch} />
    case 'ready':
      return <LinkReadyPage slug={page.link.alias_slug} isEditing={state.isEditing} dispatch={dispatch} />
    default: {
      const unknownPage: never = page
      return unknownPage
    }
  }
}

function LinkTypePage({ typeId, dispatch }: { typeId: string | null; dispatch: Dispatch<LinkModalAction> }) {
  const descriptionId = useId()
  return (
    <>
      <div className="flex items-center gap-2 pr-10">
        <DialogTitle className="font-semibold text-xl tracking-tight">Receiving Method</DialogTitle>
        <HelpTooltip label="About receiving methods">
          The destination style decides where payments land: any chain and token you pick, or an Avalanche
          card top-up.
        </HelpTooltip>
      </div>
      <DialogDescription>
        <span id={descriptionId}>Pick a destination style.</span>
      </DialogDescription>
      <div role="radiogroup" aria-labelledby={descriptionId} className="mt-5 grid gap-3">
        {linkTypes.slice(0, maxShownLinkTypes).map((type) => {
          const isChosen = type.id === typeId
          return (
            // biome-ignore lint/a11y/useSemanticElements: a card-sized option; a native radio cannot hold this layout
            <button
              key={type.id}
              type="button"
              role="radio"
              aria-checked={isChosen}
              onClick={() => dispatch({ type: 'chooseType', typeId: type.id })}
              className={classNames(
                'flex min-h-16 w-full items-center gap-4 rounded-card border p-4 text-left transition-colors',
                isChosen ? 'border-accent bg-accent-soft' : 'border-border hover:bg-subtle',
              )}
            >
              <span
                aria-hidden="true"
                className="flex size-11 shrink-0 items-center justify-center rounded-full bg-subtle text-accent"
              >
                <type.icon className="size-5" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block font-medium">{type.title}</span>
                <span className="mt-0.5 block text-muted text-sm">{type.subtitle}</span>
              </span>
              <span
                aria-hidden="true"
                className={classNames(
                  'size-5 shrink-0 rounded-full border-2',
                  isChosen
                    ? 'border-accent bg-accent shadow-[inset_0_0_0_3px_var(--ql-surface)]'
                    : 'border-border',
                )}
              />
            </button>
          )
        })}
      </div>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => dispatch({ type: 'back' })}>
          Back
        </Button>
        <Button disabled={typeId === null} onClick={() => dispatch({ type: 'continue' })}>
          Continue
        </Button>
      </div>
    </>
  )
}

function HelpTooltip({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Tooltip.Provider>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <button
            type="button"
            aria-label={label}
            className="inline-flex size-11 items-center justify-center rounded-control text-muted hover:bg-subtle hover:text-fg"
          >
            <CircleHelp aria-hidden="true" className="size-5" />
          </button>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content
            sideOffset={4}
            className="z-[60] max-w-64 rounded-control border border-border bg-surface px-3 py-2 text-fg text-sm shadow-pop"
          >
            {children}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  )
}

type FieldKey = 'alias' | 'receiver_address' | 'chain' | 'token' | 'message'

function mapServerField(field: string | undefined): DraftFieldName | null {
  switch (field) {
    case 'alias':
    case 'alias_slug':
      return 'alias'
    case 'receiver_address':
      return 'receiver_address'
    case 'chain':
    case 'chain_id':
      return 'chain'
    case 'token_address':
    case 'token_name':
      return 'token'
    case 'message':
      return 'message'
    default:
      return null
  }
}

/** Turns a failed save into what the details page shows next to the field it names. */
export function toDraftError(error: unknown, fallback: string): DraftError {
  if (!(error instanceof AppError)) return { field: null, message: fallback }
  const suggestion = error.details?.suggestion
  return {
    field: mapServerField(error.field),
    message: error.userMessage,
    ...(typeof suggestion === 'string' ? { suggestion } : {}),
  }
}

function LinkDetailsPage({ state, dispatch }: LinkManagerModalProps) {
  const { draft, isEditing, isSaving, error } = state
  const chainsQuery = useChains()
  const tokensQuery = useTokens()
  const createMutation = useCreateLink()
  const updateMutation = useUpdateLink()
  const [touched, setTouched] = useState<Partial<Record<FieldKey, boolean>>>({})
  const type = getActiveLinkType(state)
  const chainLocked = isChainLocked(state)

  const offeredChains = useMemo(() => {
    const offered = selectOfferedChains(chainsQuery.data?.items ?? [])
    return isEditing ? offered : filterChainsForType(offered, type)
  }, [chainsQuery.data, isEditing, type])
  const allTokens = tokensQuery.data?.items ?? []
  const tokensOnChain = useMemo(() => {
    const onChain = selectOfferedTokens(
      (tokensQuery.data?.items ?? []).filter((token) => token.chainId === draft.chain_id),
    )
    return isEditing ? onChain : filterTokensForType(onChain, draft.chain, type)
  }, [tokensQuery.data, draft.chain_id, draft.chain, isEditing, type])

  const chainsItems = chainsQuery.data?.items
  const tokensItems = tokensQuery.data?.items
  useEffect(() => {
    if (chainsItems === undefined || tokensItems === undefined) return
    dispatch({ type: 'applyCatalogue', chains: selectOfferedChains(chainsItems), tokens: tokensItems })
  }, [chainsItems, tokensItems, dispatch])

  const problems: DraftProblems = validateLinkDraft(draft, isEditing)
  const isValid = Object.keys(problems).length === 0
  const shown = (field: FieldKey): string | undefined => {
    if (error?.field === field) return error.message
    return touched[field] === true ? problems[field] : undefined
  }
  const touch = (field: FieldKey) => setTouched((current) => ({ ...current, [field]: true }))

  const submit = async () => {
    if (!isValid || isSaving) {
      setTouched({ alias: true, receiver_address: true, chain: true, token: true, message: true })
      return
    }
    if (!isEditing) {
      const onChain = allTokens.filter((token) => token.chainId === draft.chain_id)
      if (!onChain.some((token) => isSameTokenAddress(token.address, draft.token_address))) {
        window.alert('Selected token does not belong to the chosen chain.')
        return
      }
    }
    dispatch({ type: 'submit' })
    try {
      const link =
        isEditing && state.editingId !== null
          ? await updateMutation.mutateAsync({
              id: state.editingId,
              alias: draft.alias.trim(),
              alias_slug: getDraftSlug(draft),
              message: draft.message,
              account_type: 'personal',
              enabled: draft.enabled,
              favorite: draft.favorite,
              settings: '{}',
            })
          : await createMutation.mutateAsync({
              link_type: draft.link_type,
              alias: draft.alias,
              ...(draft.alias_slug === null ? {} : { alias_slug: draft.alias_slug }),
              receiver_address: draft.receiver_address,
              chain: draft.chain,
              chain_id: draft.chain_id ?? 0,
              token_name: draft.token_name,
              token_address: draft.token_address,
              message: draft.message,
              account_type: 'personal',
              enabled: draft.enabled,
              favorite: draft.favorite,
              settings: '{}',
              idempotency_key: draft.idempotency_key,
            })
      dispatch({ type: 'saved', link })
    } catch (caught) {
      dispatch({ type: 'failed', error: toDraftError(caught, isEditing ? 'Update failed' : 'Create failed') })
    }
  }

  const ids = {
    alias: useId(),
    receiver: useId(),
    chain: useId(),
    token: useId(),
    message: useId(),
  }
  const chainHelp = isEditing
    ? 'Chain cannot be changed.'
    : chainLocked
      ? `${type?.title ?? 'This type'} receives on one chain.`
      : undefined
  const aliasError = shown('alias')
  const slug = getDraftSlug(draft)

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <DialogTitle>{isEditing ? 'Edit Payment Link' : (type?.title ?? 'Crypto Payment Page')}</DialogTitle>
      <DialogDescription>
        {isEditing ? 'Change the name, message or status of this link.' : 'Where should payments land?'}
      </DialogDescription>
      <div className="mt-5 grid gap-4">
        <Field
          id={ids.alias}
          label="Payment Page Name"
          error={aliasError}
          help={slug.length > 0 ? `Link: /pay/${slug}` : undefined}
        >
          <input
            id={ids.alias}
            className={inputClassName(aliasError !== undefined)}
            placeholder="My Personal Payment Page"
            value={draft.alias}
            maxLength={64}
            autoComplete="off"
            aria-invalid={aliasError !== undefined}
            aria-describedby={`${ids.alias}-message`}
            onChange={(event) => {
              dispatch({ type: 'setAlias', value: event.target.value })
              if (event.target.value.trim().length >= 3) touch('alias')
            }}
            onBlur={() => touch('alias')}
          />
        </Field>
        {error?.field === 'alias' && error.suggestion !== undefined ? (
          <div className="-mt-2">
            <Button
              variant="secondary"
              size="compact"
              onClick={() => dispatch({ type: 'useSuggestedSlug', slug: error.suggestion ?? '' })}
            >
              Use "{error.suggestion}"
            </Button>
          </div>
        ) : null}
        <Field
          id={ids.receiver}
          label="Wallet Address"
          error={isEditing ? undefined : shown('receiver_address')}
          help={isEditing ? 'Receiver address cannot be changed.' : undefined}
        >
          <input
            id={ids.receiver}
            className={classNames(
              inputClassName(!isEditing && shown('receiver_address') !== undefined),
              'font-mono',
            )}
            placeholder="0x…"
            value={draft.receiver_address}
            disabled={isEditing}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={!isEditing && shown('receiver_address') !== undefined}
            aria-describedby={`${ids.receiver}-message`}
            onChange={(event) => dispatch({ type: 'setReceiver', value: event.target.value })}
            onBlur={() => touch('receiver_address')}
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id={ids.chain}
            label="Receive Chain"
            error={chainsQuery.data?.error ?? (isEditing ? undefined : shown('chain'))}
            help={chainHelp}
          >
            <select
              id={ids.chain}
              className={inputClassName(false)}
              disabled={chainLocked || chainsQuery.isPending}
              value={chainsQuery.isPending ? '' : draft.chain_id === null ? '' : String(draft.chain_id)}
              aria-describedby={`${ids.chain}-message`}
              onBlur={() => touch('chain')}
              onChange={(event) => {
                const chain = offeredChains.find((item) => String(item.chainId) === event.target.value)
                if (chain === undefined) return
                touch('chain')
                dispatch({
                  type: 'changeChain',
                  chain,
                  tokensOnChain: allTokens.filter((token) => token.chainId === chain.chainId),
                })
              }}
            >
              {chainsQuery.isPending ? (
                <option value="">Loading chains…</option>
              ) : (
                <ChainOptions chains={offeredChains} draftChainId={draft.chain_id} draftChain={draft.chain} />
              )}
            </select>
          </Field>
          <Field
            id={ids.token}
            label="Receive Token"
            error={tokensQuery.data?.error ?? (isEditing ? undefined : shown('token'))}
            help={isEditing ? 'Token cannot be changed.' : undefined}
          >
            <select
              id={ids.token}
              className={inputClassName(false)}
              disabled={isEditing || tokensQuery.isPending}
              value={tokensQuery.isPending ? '' : draft.token_address.toLowerCase()}
              aria-describedby={`${ids.token}-message`}
              onBlur={() => touch('token')}
              onChange={(event) => {
                const token = tokensOnChain.find((item) => item.address.toLowerCase() === event.target.value)
                touch('token')
                if (token !== undefined) dispatch({ type: 'changeToken', token })
              }}
            >
              {tokensQuery.isPending ? (
                <option value="">Loading tokens…</option>
              ) : (
                <TokenOptions
                  tokens={tokensOnChain}
                  draftAddress={draft.token_address}
                  draftName={draft.token_name}
                />
              )}
            </select>
          </Field>
        </div>
        <Field id={ids.message} label="Message" error={shown('message')}>
          <textarea
            id={ids.message}
            className={classNames(inputClassName(shown('message') !== undefined), 'min-h-20 py-2.5')}
            placeholder="Thanks for supporting!"
            value={draft.message}
            maxLength={messageMaxLength}
            rows={2}
            aria-describedby={`${ids.message}-message`}
            onChange={(event) => dispatch({ type: 'setMessage', value: event.target.value })}
            onBlur={() => touch('message')}
          />
        </Field>
        <div className="flex flex-wrap gap-x-6 gap-y-1">
          <Checkbox
            label="Enabled"
            checked={draft.enabled}
            onChange={(value) => dispatch({ type: 'setEnabled', value })}
          />
          <Checkbox
            label="Favorite"
            checked={draft.favorite}
            onChange={(value) => dispatch({ type: 'setFavorite', value })}
          />
        </div>
        {error !== null && error.field === null ? (
          <p role="alert" className="text-danger text-sm">
            {error.message}
          </p>
        ) : null}
      </div>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => dispatch({ type: 'back' })} disabled={isSaving}>
          Back
        </Button>
        <Button type="submit" disabled={!isValid || isSaving} isBusy={isSaving}>
          {isSaving ? (isEditing ? 'Saving…' : 'Creating…') : isEditing ? 'Save' : 'Create'}
        </Button>
      </div>
    </form>
  )
}

function ChainOptions({
  chains,
  draftChainId,
  draftChain,
}: {
  chains: readonly Chain[]
  draftChainId: number | null
  draftChain: string
}) {
  const hasCurrent = chains.some((chain) => chain.chainId === draftChainId)
  return (
    <>
      {hasCurrent ? null : (
        <option value={draftChainId === null ? '' : String(draftChainId)} disabled>
          {draftChainId === null || draftChain.length === 0 ? 'Select a chain' : draftChain}
        </option>
      )}
      {chains.map((chain) => (
        <option key={chain.chainId} value={String(chain.chainId)}>
          {chain.networkName}
        </option>
      ))}
    </>
  )
}

function TokenOptions({
  tokens,
  draftAddress,
  draftName,
}: {
  tokens: readonly Token[]
  draftAddress: string
  draftName: string
}) {
  const hasCurrent =
    draftAddress.length > 0 && tokens.some((token) => isSameTokenAddress(token.address, draftAddress))
  return (
    <>
      {hasCurrent ? null : (
        <option value={draftAddress.toLowerCase()} disabled>
          {draftAddress.length === 0 ? 'Select a token' : draftName}
        </option>
      )}
      {tokens.map((token) => (
        <option key={token.address} value={token.address.toLowerCase()}>
          {token.symbol}
          {token.name.length > 0 ? ` · ${token.name}` : ''}
        </option>
      ))}
    </>
  )
}

function inputClassName(isInvalid: boolean): string {
  return classNames(
    'min-h-11 w-full rounded-control border bg-surface px-3 text-fg text-sm placeholder:text-muted',
    'disabled:cursor-not-allowed disabled:bg-subtle disabled:text-muted',
    isInvalid ? 'border-danger' : 'border-border',
  )
}

function Field({
  id,
  label,
  error,
  help,
  children,
}: {
  id: string
  label: string
  error?: string | undefined
  help?: string | undefined
  children: ReactNode
}) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="font-medium text-sm">
        {label}
      </label>
      {children}
      <p
        id={`${id}-message`}
        className={classNames('min-h-4 text-xs', error === undefined ? 'text-muted' : 'text-danger')}
      >
        {error ?? help ?? ''}
      </p>
    </div>
  )
}

function Checkbox({
  label,
  checked,
  onChange,
}: {
  label: string
  checked: boolean
  onChange: (value: boolean) => void
}) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
      <input
        type="checkbox"
        className="size-4 accent-[var(--ql-accent)]"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      {label}
    </label>
  )
}

function LinkReadyPage({
  slug,
  isEditing,
  dispatch,
}: {
  slug: string
  isEditing: boolean
  dispatch: Dispatch<LinkModalAction>
}) {
  useEffect(() => fireConfetti(), [])
  const url = buildPublicLinkUrl(slug)
  return (
    <div className="flex flex-col items-center text-center">
      <span className="mt-2 flex size-16 items-center justify-center rounded-full bg-success-soft text-success">
        <CircleCheck aria-hidden="true" className="size-9" />
      </span>
      <DialogTitle className="mt-5 font-semibold text-xl tracking-tight">
        {isEditing ? 'Link updated!' : 'Your Link is Ready to Share'}
      </DialogTitle>
      <DialogDescription>Anyone with this link can pay you.</DialogDescription>
      <CopyLinkField url={url} className="mt-6 w-full" />
      <Button className="mt-6 w-full" onClick={() => dispatch({ type: 'close' })}>
        Done
      </Button>
    </div>
  )
}
