import type { RoutingChain, RoutingToken } from '@quicklinks/core/api/routing'
import { describe, expect, it } from 'vitest'
import type { Link } from './link'
import {
  initialLinkModalState,
  isChainLocked,
  type LinkModalState,
  reduceLinkModal,
} from './link-modal-state'

function chain(chainId: number, networkIdentifier: string): RoutingChain {
  return {
    chainId,
    networkIdentifier,
    networkName: networkIdentifier,
    chainIconURI: '',
    type: 'evm',
    enabled: true,
    visible: true,
    nativeCurrency: { symbol: 'ETH', decimals: 18 },
    rpcUrl: '',
    blockExplorerUrl: '',
  }
}

function token(chainId: number, symbol: string, address: string): RoutingToken {
  return {
    chainId,
    address,
    symbol,
    name: symbol,
    decimals: 6,
    type: 'evm',
    logoURI: '',
    active: true,
    visible: true,
    usdPrice: null,
  }
}

const chains = [chain(8453, 'base'), chain(43114, 'avalanche'), chain(42161, 'arbitrum')]
const sharedUsdc = '0x00000000000000000000000000000000000000c1'
const tokens = [
  token(8453, 'USDC', sharedUsdc),
  token(8453, 'WETH', '0x00000000000000000000000000000000000000b2'),
  token(43114, 'USDC', '0x00000000000000000000000000000000000000a1'),
  token(43114, 'USDT', '0x00000000000000000000000000000000000000a2'),
  token(43114, 'WAVAX', '0x00000000000000000000000000000000000000a3'),
  token(42161, 'USDC', sharedUsdc),
]

const link: Link = {
  id: 'link-1',
  link_type: 'Crypto Payment Page',
  alias: 'Coffee Fund',
  alias_slug: 'coffee-fund',
  receiver_address: '0x1111111111111111111111111111111111111111',
  chain: 'base',
  chain_id: 8453,
  token_name: 'USDC',
  token_address: sharedUsdc,
  message: 'Thanks',
  amount: null,
  account_type: 'personal',
  enabled: true,
  favorite: false,
  notify_payments: true,
  settings: '{}',
  idempotency_key: 'key-1',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
}

function run(...actions: Parameters<typeof reduceLinkModal>[1][]): LinkModalState {
  return actions.reduce(reduceLinkModal, initialLinkModalState)
}

describe('link manager modal reducer', () => {
  it('opens create mode on the type page with a fresh draft and its idempotency key', () => {
    const state = run({ type: 'openCreate', idempotencyKey: 'draft-key' })
    expect(state.page).toEqual({ name: 'type' })
    expect(state.isEditing).toBe(false)
    expect(state.draft.idempotency_key).toBe('draft-key')
    expect(state.draft.enabled).toBe(true)
    expect(state.draft.chain_id).toBe(8453)
  })

  it('does not continue to details before a type is chosen', () => {
    const state = run({ type: 'openCreate', idempotencyKey: 'k' }, { type: 'continue' })
    expect(state.page.name).toBe('type')
  })

  it('sets link_type to the chosen title and continues to details; back returns to type, back again closes', () => {
    const details = run(
      { type: 'openCreate', idempotencyKey: 'k' },
      { type: 'chooseType', typeId: 'custom' },
      { type: 'continue' },
    )
    expect(details.page.name).toBe('details')
    expect(details.draft.link_type).toBe('Crypto Payment Page')
    const type = reduceLinkModal(details, { type: 'back' })
    expect(type.page.name).toBe('type')
    expect(reduceLinkModal(type, { type: 'back' }).page.name).toBe('closed')
  })

  it('applies the Avalanche preset: avalanche, 43114, USDC resolved to its address, chain locked', () => {
    const chosen = run(
      { type: 'openCreate', idempotencyKey: 'k' },
      { type: 'chooseType', typeId: 'avax-card' },
      { type: 'continue' },
      { type: 'applyCatalogue', chains, tokens },
    )
    expect(chosen.draft).toMatchObject({
      link_type: 'Avax Card Payment Page',
      chain: 'avalanche',
      chain_id: 43114,
      token_name: 'USDC',
      token_address: '0x00000000000000000000000000000000000000a1',
    })
    expect(isChainLocked(chosen)).toBe(true)
    // A locked chain ignores a change.
    const unchanged = reduceLinkModal(chosen, {
      type: 'changeChain',
      chain: chains[0] as RoutingChain,
      tokensOnChain: tokens,
    })
    expect(unchanged.draft.chain_id).toBe(43114)
  })

  it('moves a chain the type does not allow to its first allowed chain', () => {
    const state = run(
      { type: 'openCreate', idempotencyKey: 'k' },
      { type: 'chooseType', typeId: 'custom' },
      { type: 'chooseType', typeId: 'avax-card' },
    )
    const moved = reduceLinkModal(
      { ...state, draft: { ...state.draft, chain: 'base', chain_id: 8453, token_name: '' } },
      { type: 'applyCatalogue', chains, tokens },
    )
    expect(moved.draft.chain).toBe('avalanche')
    expect(moved.draft.chain_id).toBe(43114)
  })

  it('clears the token on a chain change unless its address exists on the new chain', () => {
    const base = run(
      { type: 'openCreate', idempotencyKey: 'k' },
      { type: 'chooseType', typeId: 'custom' },
      { type: 'continue' },
      { type: 'changeToken', token: tokens[0] as RoutingToken },
    )
    expect(base.draft.token_address).toBe(sharedUsdc)
    const arbitrum = reduceLinkModal(base, {
      type: 'changeChain',
      chain: chains[2] as RoutingChain,
      tokensOnChain: tokens.filter((item) => item.chainId === 42161),
    })
    expect(arbitrum.draft).toMatchObject({
      chain: 'arbitrum',
      chain_id: 42161,
      token_name: 'USDC',
      token_address: sharedUsdc,
    })
    const avalanche = reduceLinkModal(arbitrum, {
      type: 'changeChain',
      chain: chains[1] as RoutingChain,
      tokensOnChain: tokens.filter((item) => item.chainId === 43114),
    })
    expect(avalanche.draft).toMatchObject({
      chain: 'avalanche',
      chain_id: 43114,
      token_name: '',
      token_address: '',
    })
  })

  it('opens edit mode on details with the link as draft; chain and token cannot change; back closes', () => {
    const state = run({ type: 'openEdit', link })
    expect(state.page.name).toBe('details')
    expect(state.isEditing).toBe(true)
    expect(state.draft.alias).toBe('Coffee Fund')
    expect(isChainLocked(state)).toBe(true)
    expect(
      reduceLinkModal(state, { type: 'changeToken', token: tokens[1] as RoutingToken }).draft.token_name,
    ).toBe('USDC')
    expect(reduceLinkModal(state, { type: 'back' }).page.name).toBe('closed')
  })

  it('goes to ready after a save with the success flag, back to details from ready, and resets on close', () => {
    const saved = run(
      { type: 'openEdit', link },
      { type: 'setAlias', value: 'Tea Fund' },
      { type: 'submit' },
      { type: 'saved', link: { ...link, alias: 'Tea Fund' } },
    )
    expect(saved.page).toMatchObject({ name: 'ready' })
    expect(saved.isSuccess).toBe(true)
    expect(saved.isSaving).toBe(false)
    expect(reduceLinkModal(saved, { type: 'back' }).page.name).toBe('details')
    // Back from the ready page of a new link edits that link: saving again updates it.
    const created = run(
      { type: 'openCreate', idempotencyKey: 'k' },
      { type: 'chooseType', typeId: 'custom' },
      { type: 'continue' },
      { type: 'submit' },
      { type: 'saved', link },
    )
    const back = reduceLinkModal(created, { type: 'back' })
    expect(back.page.name).toBe('details')
    expect(back.isEditing).toBe(true)
    expect(back.editingId).toBe(link.id)
    expect(back.draft.alias).toBe(link.alias)
    const closed = reduceLinkModal(saved, { type: 'close' })
    expect(closed.page.name).toBe('closed')
    expect(closed.isEditing).toBe(false)
    expect(closed.draft.alias).toBe('')
    expect(closed.error).toBeNull()
    expect(reduceLinkModal(closed, { type: 'clearSuccess' }).isSuccess).toBe(false)
  })

  it('keeps a server error until the named field changes, and takes a suggested slug', () => {
    const failed = run(
      { type: 'openCreate', idempotencyKey: 'k' },
      { type: 'chooseType', typeId: 'custom' },
      { type: 'continue' },
      { type: 'setAlias', value: 'Coffee' },
      { type: 'submit' },
      { type: 'failed', error: { field: 'alias', message: 'taken', suggestion: 'coffee-2' } },
    )
    expect(failed.error?.suggestion).toBe('coffee-2')
    expect(reduceLinkModal(failed, { type: 'setMessage', value: 'hi' }).error).not.toBeNull()
    const fixed = reduceLinkModal(failed, { type: 'useSuggestedSlug', slug: 'coffee-2' })
    expect(fixed.error).toBeNull()
    expect(fixed.draft.alias_slug).toBe('coffee-2')
  })
})
