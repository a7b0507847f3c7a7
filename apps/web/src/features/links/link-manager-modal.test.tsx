import type { RoutingChain, RoutingToken } from '@quicklinks/core/api/routing'
import { QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useReducer } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '../../app/query-client'
import { catalogueKeys } from '../routing/use-catalogue'
import type { Link } from './link'
import { LinkManagerModal } from './link-manager-modal'
import {
  createEmptyDraft,
  initialLinkModalState,
  type LinkModalState,
  reduceLinkModal,
} from './link-modal-state'

// The ready page's confetti draws on a canvas, which jsdom has not got.
vi.mock('./fire-confetti', () => ({ fireConfetti: () => () => {} }))

const chains: RoutingChain[] = [
  {
    chainId: 8453,
    networkIdentifier: 'base',
    networkName: 'Base',
    chainIconURI: '',
    type: 'evm',
    enabled: true,
    visible: true,
    nativeCurrency: { symbol: 'ETH', decimals: 18 },
    rpcUrl: '',
    blockExplorerUrl: '',
  },
]
const tokens: RoutingToken[] = [
  {
    chainId: 8453,
    address: '0x00000000000000000000000000000000000000c1',
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    type: 'evm',
    logoURI: '',
    active: true,
    visible: true,
    usdPrice: null,
  },
]

function Harness({ start }: { start: LinkModalState }) {
  const [state, dispatch] = useReducer(reduceLinkModal, start)
  return <LinkManagerModal state={state} dispatch={dispatch} />
}

function renderModal(start: LinkModalState) {
  const queryClient = createQueryClient()
  queryClient.setQueryData(catalogueKeys.chains(), { items: chains, error: null })
  queryClient.setQueryData(catalogueKeys.tokens(), { items: tokens, error: null })
  const fetchSpy = vi.spyOn(globalThis, 'fetch')
  render(
    <QueryClientProvider client={queryClient}>
      <Harness start={start} />
    </QueryClientProvider>,
  )
  return { fetchSpy }
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('link manager modal', () => {
  it('refuses a token that is not on the chosen chain with an alert and saves nothing', async () => {
    const alert = vi.fn()
    vi.stubGlobal('alert', alert)
    const { fetchSpy } = renderModal({
      ...initialLinkModalState,
      page: { name: 'details' },
      typeId: 'custom',
      draft: {
        ...createEmptyDraft('k'),
        link_type: 'Crypto Payment Page',
        alias: 'Coffee Fund',
        receiver_address: '0x1111111111111111111111111111111111111111',
        token_name: 'USDT',
        token_address: '0x00000000000000000000000000000000000000a2',
      },
    })
    const dialog = await screen.findByRole('dialog', { name: 'Crypto Payment Page' })
    fireEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(alert).toHaveBeenCalledWith('Selected token does not belong to the chosen chain.')
    expect(fetchSpy).not.toHaveBeenCalled()
    expect(dialog).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Create' })).toBeTruthy()
  })

  it('shows the edit help texts and disables receiver, chain and token', async () => {
    renderModal({
      ...initialLinkModalState,
      page: { name: 'details' },
      isEditing: true,
      editingId: 'l1',
      draft: {
        ...createEmptyDraft('k'),
        alias: 'Coffee Fund',
        receiver_address: '0x1111111111111111111111111111111111111111',
        token_name: 'USDC',
        token_address: tokens[0]?.address ?? '',
      },
    })
    await screen.findByRole('dialog', { name: 'Edit Payment Link' })
    expect((screen.getByLabelText('Wallet Address') as HTMLInputElement).disabled).toBe(true)
    expect((screen.getByLabelText('Receive Chain') as HTMLSelectElement).disabled).toBe(true)
    expect((screen.getByLabelText('Receive Token') as HTMLSelectElement).disabled).toBe(true)
    expect(screen.getByText('Receiver address cannot be changed.')).toBeTruthy()
    expect(screen.getByText('Chain cannot be changed.')).toBeTruthy()
    expect(screen.getByText('Token cannot be changed.')).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false)
  })

  describe('the "E-mail me each payment" switch (docs/api.md#notices)', () => {
    const savedLink: Link = {
      id: '1f0c3a55-8b8e-4d2a-9a61-0d7f6f0c1a01',
      link_type: 'Crypto Payment Page',
      alias: 'Coffee Fund',
      alias_slug: 'coffee-fund',
      receiver_address: '0x1111111111111111111111111111111111111111',
      chain: 'base',
      chain_id: 8453,
      token_name: 'USDC',
      token_address: tokens[0]?.address ?? '',
      message: '',
      amount: null,
      account_type: 'personal',
      enabled: true,
      favorite: false,
      notify_payments: false,
      settings: '{}',
      idempotency_key: 'k',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    }

    /** Answers every link write with `savedLink` and resolves the JSON bodies sent. */
    function answerWrites(fetchSpy: ReturnType<typeof vi.spyOn>) {
      const bodies: { method: string; body: Record<string, unknown> }[] = []
      fetchSpy.mockImplementation(async (_input: unknown, init?: RequestInit) => {
        bodies.push({ method: init?.method ?? 'GET', body: JSON.parse(String(init?.body ?? '{}')) })
        return new Response(JSON.stringify({ data: savedLink }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        })
      })
      return bodies
    }

    const notifyBox = () =>
      screen.getByRole('checkbox', { name: 'E-mail me each payment' }) as HTMLInputElement

    it('is on for a new link, and what the payee leaves it at goes in the create body', async () => {
      const { fetchSpy } = renderModal({
        ...initialLinkModalState,
        page: { name: 'details' },
        typeId: 'custom',
        draft: {
          ...createEmptyDraft('k'),
          link_type: 'Crypto Payment Page',
          alias: 'Coffee Fund',
          receiver_address: '0x1111111111111111111111111111111111111111',
          token_name: 'USDC',
          token_address: tokens[0]?.address ?? '',
        },
      })
      const bodies = answerWrites(fetchSpy)
      await screen.findByRole('dialog', { name: 'Crypto Payment Page' })
      expect(notifyBox().checked).toBe(true)
      fireEvent.click(notifyBox())
      expect(notifyBox().checked).toBe(false)
      fireEvent.click(screen.getByRole('button', { name: 'Create' }))
      await waitFor(() => expect(bodies.some((sent) => sent.method === 'POST')).toBe(true))
      expect(bodies.find((sent) => sent.method === 'POST')?.body).toMatchObject({
        alias: 'Coffee Fund',
        notify_payments: false,
      })
    })

    it("shows an edited link's setting and sends the change with the update", async () => {
      const { fetchSpy } = renderModal(
        reduceLinkModal(initialLinkModalState, { type: 'openEdit', link: savedLink }),
      )
      const bodies = answerWrites(fetchSpy)
      await screen.findByRole('dialog')
      expect(notifyBox().checked).toBe(false)
      fireEvent.click(notifyBox())
      fireEvent.click(screen.getByRole('button', { name: 'Save' }))
      await waitFor(() => expect(bodies.some((sent) => sent.method === 'PUT')).toBe(true))
      expect(bodies.find((sent) => sent.method === 'PUT')?.body).toMatchObject({ notify_payments: true })
    })
  })
})
