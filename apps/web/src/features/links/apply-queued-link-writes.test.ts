import { describe, expect, it } from 'vitest'
import type { QueuedEntry, QueuedRequest } from '../../lib/offline-queue'
import { applyQueuedLinkWrites } from './apply-queued-link-writes'
import type { Link } from './link'

function buildLink(id: string, overrides: Partial<Link> = {}): Link {
  return {
    id,
    link_type: 'Crypto Payment Page',
    alias: `Link ${id}`,
    alias_slug: `link-${id}`,
    receiver_address: '0x1111111111111111111111111111111111111111',
    chain: 'base',
    chain_id: 8453,
    token_name: 'USDC',
    token_address: '0x00000000000000000000000000000000000000c1',
    message: '',
    amount: null,
    account_type: 'personal',
    enabled: true,
    favorite: false,
    notify_payments: true,
    settings: '{}',
    idempotency_key: `key-${id}`,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  }
}

let counter = 0
function entry(request: Partial<QueuedRequest> & { method: string; path: string }): QueuedEntry {
  counter += 1
  return {
    key: `offline-${1_000 + counter}`,
    request: { owner: 'user-1', headers: {}, body: null, queuedAt: '2026-02-02T00:00:00.000Z', ...request },
  }
}

describe('applyQueuedLinkWrites', () => {
  it('shows a favorite toggled offline as toggled and pending, later writes winning', () => {
    const links = [buildLink('a'), buildLink('b')]
    const first = entry({ method: 'PUT', path: '/api/links/a', body: JSON.stringify({ favorite: true }) })
    const second = entry({
      method: 'PUT',
      path: '/api/links/a',
      body: JSON.stringify({ favorite: false, enabled: false, alias: 'Renamed', receiver_address: '0xdead' }),
    })

    const { shown } = applyQueuedLinkWrites(links, [first, second])

    expect(shown[0]?.link).toMatchObject({ id: 'a', favorite: false, enabled: false, alias: 'Renamed' })
    // Receiver, chain and token cannot change through PUT, so a queued body never changes them here.
    expect(shown[0]?.link.receiver_address).toBe(links[0]?.receiver_address)
    expect(shown[0]?.sync).toEqual({ pending: 'update', error: null, keys: [first.key, second.key] })
    expect(shown[1]).toEqual({ link: links[1], sync: null })
  })

  it('marks a link deleted offline as pending deletion, even after a queued toggle', () => {
    const links = [buildLink('a')]
    const toggle = entry({ method: 'PUT', path: '/api/links/a', body: JSON.stringify({ favorite: true }) })
    const remove = entry({ method: 'DELETE', path: '/api/links/a' })

    const { shown } = applyQueuedLinkWrites(links, [toggle, remove])

    expect(shown).toHaveLength(1)
    expect(shown[0]?.link.favorite).toBe(true)
    expect(shown[0]?.sync).toEqual({ pending: 'delete', error: null, keys: [toggle.key, remove.key] })
  })

  it('shows a link created offline first, pending creation, until the list holds its idempotency key', () => {
    const create = entry({
      method: 'POST',
      path: '/api/links',
      body: JSON.stringify({
        alias: 'Tip Jar',
        receiver_address: '0xabc',
        chain: 'base',
        chain_id: 8453,
        idempotency_key: 'new-1',
      }),
    })
    const before = applyQueuedLinkWrites([buildLink('a')], [create])
    expect(before.shown.map((shown) => [shown.link.alias, shown.sync?.pending ?? null])).toEqual([
      ['Tip Jar', 'create'],
      ['Link a', null],
    ])
    expect(before.shown[0]?.link).toMatchObject({ id: create.key, alias_slug: 'tip-jar', chain_id: 8453 })

    // The create reached the server before the network went (its entry is still to be replayed).
    const after = applyQueuedLinkWrites(
      [buildLink('n', { idempotency_key: 'new-1', alias: 'Tip Jar' })],
      [create],
    )
    expect(after.shown.map((shown) => [shown.link.id, shown.sync])).toEqual([['n', null]])
  })

  it('carries a failed replay’s reason to its card, and sets apart failures whose link is not listed', () => {
    const failed = entry({
      method: 'PUT',
      path: '/api/links/a',
      body: JSON.stringify({ favorite: true }),
      lastError: 'Try later.',
    })
    const orphan = entry({ method: 'PUT', path: '/api/links/gone', body: '{}', lastError: 'Link not found' })
    const pendingOrphan = entry({ method: 'PUT', path: '/api/links/later', body: '{}' })

    const result = applyQueuedLinkWrites([buildLink('a')], [failed, orphan, pendingOrphan])

    expect(result.shown[0]?.sync).toEqual({ pending: 'update', error: 'Try later.', keys: [failed.key] })
    expect(result.unmatchedFailures).toEqual([orphan])
  })

  it('ignores queued writes that are not link writes', () => {
    const other = entry({ method: 'POST', path: '/api/username/reserve', body: '{}' })
    expect(applyQueuedLinkWrites([buildLink('a')], [other]).shown[0]?.sync).toBeNull()
  })
})
