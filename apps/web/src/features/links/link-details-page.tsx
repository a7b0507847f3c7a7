import { maxMessageLength } from '@quicklinks/core/api/links'
import { type Dispatch, useEffect, useId, useMemo, useState } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { DialogDescription, DialogTitle } from '../../ui/dialog'
import { FormField } from '../../ui/form-field'
import { getInputClassName } from '../../ui/input-class-name'
import { selectOfferedChains, selectOfferedTokens } from '../routing/catalogue'
import { useChains, useTokens } from '../routing/use-catalogue'
import { ChainOptions } from './chain-options'
import { filterChainsForType } from './filter-chains-for-type'
import { filterTokensForType } from './filter-tokens-for-type'
import { getDraftSlug } from './get-draft-slug'
import { LinkAmountField } from './link-amount-field'
import { LinkFormCheckbox } from './link-form-checkbox'
import {
  getActiveLinkType,
  isChainLocked,
  type LinkModalAction,
  type LinkModalState,
} from './link-modal-state'
import { TokenOptions } from './token-options'
import { UseMyWalletButton } from './use-my-wallet-button'
import { useSaveLinkDraft } from './use-save-link-draft'
import { type DraftProblems, validateLinkDraft } from './validate-link-draft'

export type LinkDetailsPageProps = { state: LinkModalState; dispatch: Dispatch<LinkModalAction> }

type FieldKey = 'alias' | 'receiver_address' | 'chain' | 'token' | 'message' | 'amount'

/**
 * The link manager's details page: name, receiver, chain, token, message, amount, enabled, favorite
 * and the e-mail per payment, with the type's limits applied when creating and the fixed fields
 * locked when editing. Errors show once a field was touched or the form submitted; a server error
 * beside the field it names.
 */
export function LinkDetailsPage({ state, dispatch }: LinkDetailsPageProps) {
  const { draft, isEditing, isSaving, error } = state
  const chainsQuery = useChains()
  const tokensQuery = useTokens()
  const [touched, setTouched] = useState<Partial<Record<FieldKey, boolean>>>({})
  const type = getActiveLinkType(state)
  const chainLocked = isChainLocked(state)

  const offeredChains = useMemo(() => {
    const offered = selectOfferedChains(chainsQuery.data?.items ?? [])
    return isEditing ? offered : filterChainsForType(offered, type)
  }, [chainsQuery.data, isEditing, type])
  const allTokens = tokensQuery.data?.items ?? []
  const save = useSaveLinkDraft(state, dispatch, allTokens)
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
      setTouched({
        alias: true,
        receiver_address: true,
        chain: true,
        token: true,
        message: true,
        amount: true,
      })
      return
    }
    await save()
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
        <FormField
          id={ids.alias}
          label="Payment Page Name"
          error={aliasError}
          help={slug.length > 0 ? `Link: /pay/${slug}` : undefined}
        >
          <input
            id={ids.alias}
            className={getInputClassName(aliasError !== undefined)}
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
        </FormField>
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
        <FormField
          id={ids.receiver}
          label="Wallet Address"
          error={isEditing ? undefined : shown('receiver_address')}
          help={isEditing ? 'Receiver address cannot be changed.' : undefined}
        >
          <input
            id={ids.receiver}
            className={classNames(
              getInputClassName(!isEditing && shown('receiver_address') !== undefined),
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
          {isEditing ? null : (
            <UseMyWalletButton
              receiver={draft.receiver_address}
              onUse={(address) => {
                dispatch({ type: 'setReceiver', value: address })
                touch('receiver_address')
              }}
            />
          )}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            id={ids.chain}
            label="Receive Chain"
            error={chainsQuery.data?.error ?? (isEditing ? undefined : shown('chain'))}
            help={chainHelp}
          >
            <select
              id={ids.chain}
              className={getInputClassName(false)}
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
          </FormField>
          <FormField
            id={ids.token}
            label="Receive Token"
            error={tokensQuery.data?.error ?? (isEditing ? undefined : shown('token'))}
            help={isEditing ? 'Token cannot be changed.' : undefined}
          >
            <select
              id={ids.token}
              className={getInputClassName(false)}
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
          </FormField>
        </div>
        <FormField id={ids.message} label="Message" error={shown('message')}>
          <textarea
            id={ids.message}
            className={classNames(getInputClassName(shown('message') !== undefined), 'min-h-20 py-2.5')}
            placeholder="Thanks for supporting!"
            value={draft.message}
            maxLength={maxMessageLength}
            rows={2}
            aria-describedby={`${ids.message}-message`}
            onChange={(event) => dispatch({ type: 'setMessage', value: event.target.value })}
            onBlur={() => touch('message')}
          />
        </FormField>
        <LinkAmountField
          value={draft.amount}
          tokenName={draft.token_name}
          error={shown('amount')}
          inputClassName={getInputClassName(shown('amount') !== undefined)}
          onChange={(value) => dispatch({ type: 'setAmount', value })}
          onBlur={() => touch('amount')}
        />
        <div className="flex flex-wrap gap-x-6 gap-y-1">
          <LinkFormCheckbox
            label="Enabled"
            checked={draft.enabled}
            onChange={(value) => dispatch({ type: 'setEnabled', value })}
          />
          <LinkFormCheckbox
            label="Favorite"
            checked={draft.favorite}
            onChange={(value) => dispatch({ type: 'setFavorite', value })}
          />
          <LinkFormCheckbox
            label="E-mail me each payment"
            checked={draft.notify_payments}
            onChange={(value) => dispatch({ type: 'setNotifyPayments', value })}
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
