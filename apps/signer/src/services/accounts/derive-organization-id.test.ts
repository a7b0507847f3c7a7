import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { deriveOrganizationId } from './derive-organization-id.ts'

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('deriveOrganizationId', () => {
  const secret = new Uint8Array(32).fill(7)

  it('is stable per contact and shaped exactly like a random UUID', () => {
    const id = deriveOrganizationId(secret, { channel: 'email', address: 'a@example.com' })
    expect(id).toMatch(uuidV4)
    expect(randomUUID()).toMatch(uuidV4)
    expect(deriveOrganizationId(secret, { channel: 'email', address: 'a@example.com' })).toBe(id)
  })

  it('differs by contact, by channel and by secret', () => {
    const id = deriveOrganizationId(secret, { channel: 'email', address: 'a@example.com' })
    expect(deriveOrganizationId(secret, { channel: 'email', address: 'b@example.com' })).not.toBe(id)
    expect(deriveOrganizationId(secret, { channel: 'sms', address: 'a@example.com' })).not.toBe(id)
    expect(
      deriveOrganizationId(new Uint8Array(32).fill(8), { channel: 'email', address: 'a@example.com' }),
    ).not.toBe(id)
  })
})
