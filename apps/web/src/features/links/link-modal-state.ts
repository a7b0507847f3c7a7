import type { RoutingChain, RoutingToken } from '@quicklinks/core/api/routing'
import { isSameTokenAddress } from '@quicklinks/core/native-token-address'
import { filterChainsForType } from './filter-chains-for-type'
import { filterTokensForType } from './filter-tokens-for-type'
import { type Link, readLinkAmount } from './link'
import { createEmptyDraft, type DraftError, type LinkDraft } from './link-draft'
import { findLinkType, findLinkTypeByTitle, type LinkTypeDefinition } from './link-types'

// The draft's shape lives in link-draft.ts; its importers read it from here too.
export type { DraftError, DraftFieldName, LinkDraft } from './link-draft'
export { createEmptyDraft } from './link-draft'

/**
 * The link manager modal's state machine (docs/product.md#link-manager-states): closed; open on the type page
 * in create mode; details; ready after a save. Edit opens on details. A reducer over a discriminated
 * union of pages; every switch is exhaustive.
 */

export type LinkModalPage =
  | { name: 'closed' }
  | { name: 'type' }
  | { name: 'details' }
  | { name: 'ready'; link: Link }

export type LinkModalState = {
  page: LinkModalPage
  isEditing: boolean
  /** The link being edited. */
  editingId: string | null
  /** The chosen destination style (null until chosen). */
  typeId: string | null
  draft: LinkDraft
  isSaving: boolean
  error: DraftError | null
  /** True for 3 s after a save (docs/product.md#link-manager). */
  isSuccess: boolean
}

export type LinkModalAction =
  | { type: 'openCreate'; idempotencyKey: string }
  | { type: 'openEdit'; link: Link }
  | { type: 'close' }
  | { type: 'chooseType'; typeId: string }
  | { type: 'continue' }
  | { type: 'back' }
  | { type: 'setAlias'; value: string }
  | { type: 'setReceiver'; value: string }
  | { type: 'setMessage'; value: string }
  | { type: 'setAmount'; value: string }
  | { type: 'setEnabled'; value: boolean }
  | { type: 'setFavorite'; value: boolean }
  | { type: 'setNotifyPayments'; value: boolean }
  | { type: 'useSuggestedSlug'; slug: string }
  | { type: 'applyCatalogue'; chains: readonly RoutingChain[]; tokens: readonly RoutingToken[] }
  | { type: 'changeChain'; chain: RoutingChain; tokensOnChain: readonly RoutingToken[] }
  | { type: 'changeToken'; token: RoutingToken }
  | { type: 'submit' }
  | { type: 'saved'; link: Link }
  | { type: 'failed'; error: DraftError }
  | { type: 'clearSuccess' }

export const initialLinkModalState: LinkModalState = {
  page: { name: 'closed' },
  isEditing: false,
  editingId: null,
  typeId: null,
  draft: createEmptyDraft(''),
  isSaving: false,
  error: null,
  isSuccess: false,
}

function draftFromLink(link: Link): LinkDraft {
  return {
    link_type: link.link_type,
    alias: link.alias,
    // Kept until the alias changes, so an edit of the message never moves the public link.
    alias_slug: link.alias_slug,
    receiver_address: link.receiver_address,
    chain: link.chain,
    chain_id: link.chain_id,
    token_name: link.token_name,
    token_address: link.token_address,
    message: link.message ?? '',
    amount: readLinkAmount(link) ?? '',
    enabled: link.enabled,
    favorite: link.favorite,
    notify_payments: link.notify_payments,
    idempotency_key: link.idempotency_key ?? '',
  }
}

/** The type that governs the modal: the chosen one, or when editing the one the link's type names. */
export function getActiveLinkType(state: LinkModalState): LinkTypeDefinition | undefined {
  if (state.typeId !== null) return findLinkType(state.typeId)
  return findLinkTypeByTitle(state.draft.link_type)
}

/** The chain select is disabled when editing or when the type allows only one chain. */
export function isChainLocked(state: LinkModalState): boolean {
  return state.isEditing || getActiveLinkType(state)?.limits?.chains?.length === 1
}

function withChain(draft: LinkDraft, chain: RoutingChain, tokensOnChain: readonly RoutingToken[]): LinkDraft {
  const keepsToken =
    draft.token_address.length > 0 &&
    tokensOnChain.some((token) => isSameTokenAddress(token.address, draft.token_address))
  return {
    ...draft,
    chain: chain.networkIdentifier,
    chain_id: chain.chainId,
    ...(keepsToken ? {} : { token_name: '', token_address: '' }),
  }
}

/** The modal's transition function. Pure: ids, timers and requests stay in the component. */
export function reduceLinkModal(state: LinkModalState, action: LinkModalAction): LinkModalState {
  switch (action.type) {
    case 'openCreate':
      return {
        ...initialLinkModalState,
        page: { name: 'type' },
        draft: createEmptyDraft(action.idempotencyKey),
      }
    case 'openEdit':
      return {
        ...initialLinkModalState,
        page: { name: 'details' },
        isEditing: true,
        editingId: action.link.id,
        draft: draftFromLink(action.link),
      }
    case 'close':
      return { ...initialLinkModalState, isSuccess: state.isSuccess }
    case 'chooseType': {
      if (state.page.name !== 'type') return state
      const type = findLinkType(action.typeId)
      if (type === undefined) return state
      const base = createEmptyDraft(state.draft.idempotency_key)
      const draft: LinkDraft = {
        ...base,
        alias: state.draft.alias,
        receiver_address: state.draft.receiver_address,
        message: state.draft.message,
        enabled: state.draft.enabled,
        favorite: state.draft.favorite,
        notify_payments: state.draft.notify_payments,
        link_type: type.title,
        ...(type.preset === undefined
          ? {}
          : { chain: type.preset.chain, chain_id: type.preset.chain_id, token_name: type.preset.token_name }),
      }
      return { ...state, typeId: type.id, draft, error: null }
    }
    case 'continue':
      if (state.page.name !== 'type' || state.typeId === null) return state
      return { ...state, page: { name: 'details' } }
    case 'back':
      switch (state.page.name) {
        case 'closed':
          return state
        case 'type':
          return { ...initialLinkModalState }
        case 'details':
          return state.isEditing
            ? { ...initialLinkModalState }
            : { ...state, page: { name: 'type' }, error: null }
        case 'ready':
          // The link exists now: details edit it, so saving again updates it instead of creating.
          return {
            ...state,
            page: { name: 'details' },
            isEditing: true,
            editingId: state.page.link.id,
            draft: draftFromLink(state.page.link),
            error: null,
          }
        default:
          return assertNever(state.page)
      }
    case 'setAlias':
      return {
        ...state,
        draft: { ...state.draft, alias: action.value, alias_slug: null },
        error: state.error?.field === 'alias' ? null : state.error,
      }
    case 'setReceiver':
      return {
        ...state,
        draft: { ...state.draft, receiver_address: action.value },
        error: state.error?.field === 'receiver_address' ? null : state.error,
      }
    case 'setMessage':
    case 'setAmount': {
      const field = action.type === 'setMessage' ? 'message' : 'amount'
      const error = state.error?.field === field ? null : state.error
      return { ...state, draft: { ...state.draft, [field]: action.value }, error }
    }
    case 'setEnabled':
      return { ...state, draft: { ...state.draft, enabled: action.value } }
    case 'setFavorite':
      return { ...state, draft: { ...state.draft, favorite: action.value } }
    case 'setNotifyPayments':
      return { ...state, draft: { ...state.draft, notify_payments: action.value } }
    case 'useSuggestedSlug':
      return { ...state, draft: { ...state.draft, alias_slug: action.slug }, error: null }
    case 'applyCatalogue': {
      // A type that restricts chains moves a disallowed chain to the first allowed one;
      // a preset symbol becomes the active, visible token with that symbol on the chain.
      if (state.isEditing) return state
      const type = getActiveLinkType(state)
      let draft = state.draft
      const allowed = filterChainsForType(action.chains, type)
      const current =
        allowed.find((chain) => chain.chainId === draft.chain_id) ??
        allowed.find((chain) => chain.networkIdentifier === draft.chain)
      const chain = current ?? allowed[0]
      if (chain === undefined) return state
      const tokensOnChain = filterTokensForType(
        action.tokens.filter((token) => token.chainId === chain.chainId && token.active && token.visible),
        chain.networkIdentifier,
        type,
      )
      if (chain.chainId !== draft.chain_id || chain.networkIdentifier !== draft.chain) {
        draft = withChain(draft, chain, tokensOnChain)
      }
      if (draft.token_address.length === 0 && draft.token_name.length > 0) {
        const preset = tokensOnChain.find(
          (token) => token.symbol.toUpperCase() === draft.token_name.toUpperCase(),
        )
        draft =
          preset === undefined
            ? { ...draft, token_name: '' }
            : { ...draft, token_name: preset.symbol, token_address: preset.address }
      }
      return draft === state.draft ? state : { ...state, draft }
    }
    case 'changeChain':
      if (isChainLocked(state)) return state
      return {
        ...state,
        draft: withChain(state.draft, action.chain, action.tokensOnChain),
        error: state.error?.field === 'chain' || state.error?.field === 'token' ? null : state.error,
      }
    case 'changeToken':
      if (state.isEditing) return state
      return {
        ...state,
        draft: { ...state.draft, token_name: action.token.symbol, token_address: action.token.address },
        error: state.error?.field === 'token' ? null : state.error,
      }
    case 'submit':
      return { ...state, isSaving: true, error: null }
    case 'saved':
      return { ...state, isSaving: false, page: { name: 'ready', link: action.link }, isSuccess: true }
    case 'failed':
      return { ...state, isSaving: false, error: action.error }
    case 'clearSuccess':
      return { ...state, isSuccess: false }
    default:
      return assertNever(action)
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled link modal case: ${JSON.stringify(value)}`)
}
