import { describe, expect, it } from 'vitest'
import { buildMagicLink } from './build-magic-link.ts'

describe('buildMagicLink', () => {
  it('points at /login with the bundle and orgId, then the redirect params, which cannot override them', () => {
    const link = new URL(
      buildMagicLink({
        publicOrigin: 'https://pay.example.com',
        token: '3mJr7AoUXx2Wqd',
        organizationId: 'org-1',
        redirectParams: 'bundle=evil&orgId=evil&next=%2Fpay%2Fcoffee',
      }),
    )
    expect(link.origin).toBe('https://pay.example.com')
    expect(link.pathname).toBe('/login')
    expect([...link.searchParams]).toEqual([
      ['bundle', '3mJr7AoUXx2Wqd'],
      ['orgId', 'org-1'],
      ['next', '/pay/coffee'],
    ])
  })

  it('marks a link to a contact without an account with isSignup, which redirect params cannot forge', () => {
    const build = (isSignup: boolean) =>
      new URL(
        buildMagicLink({
          publicOrigin: 'https://pay.example.com',
          token: 'b',
          organizationId: 'org-1',
          redirectParams: 'isSignup=true',
          isSignup,
        }),
      ).searchParams.getAll('isSignup')
    expect(build(true)).toEqual(['true'])
    expect(build(false)).toEqual([])
  })
})
