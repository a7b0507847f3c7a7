import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { type RunningPostgres, startPostgres } from '@quicklinks/runtime/test/start-postgres'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, createTestDatabase, type TestApp } from '../../test/build-test-app.ts'
import {
  buildLinkBody,
  signInTestUser,
  type TestCaller,
  writeTestDeployment,
} from '../../test/link-test-fixtures.ts'
import { migrate } from '../db/migrate.ts'

type Instances = { first: TestApp; second: TestApp; owner: TestCaller; stranger: TestCaller }

let aliasCounter = 0
function uniqueAlias(): string {
  aliasCounter += 1
  return `Cached ${Date.now().toString(36)} ${aliasCounter}`
}

async function readPublicLink(testApp: TestApp, slug: string) {
  const response = await testApp.app.inject({ method: 'GET', url: `/api/pay/links/${slug}` })
  return { status: response.statusCode, alias: response.statusCode === 200 ? response.json().data.alias : '' }
}

async function createLink(owner: TestCaller, overrides: Record<string, unknown> = {}) {
  const response = await owner.request({
    method: 'POST',
    url: '/api/links',
    payload: buildLinkBody({ alias: uniqueAlias(), ...overrides }),
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json().data as { id: string; alias_slug: string }
}

/**
 * Cross-instance invalidation on one database, whatever carries the NOTIFY: `open` gives each
 * instance its database client (one shared PGlite, or one Postgres pool per instance).
 */
function describeInvalidation(
  name: string,
  open: () => Promise<{ first: DatabaseClient; second: DatabaseClient }>,
) {
  describe(`read caches across two instances (${name})`, () => {
    const instances = {} as Instances

    beforeAll(async () => {
      const clients = await open()
      instances.first = await buildTestApp({}, { database: clients.first })
      instances.second = await buildTestApp({}, { database: clients.second })
      writeTestDeployment(instances.first)
      writeTestDeployment(instances.second)
      instances.owner = await signInTestUser(instances.first)
      instances.stranger = await signInTestUser(instances.first)
    }, 120_000)
    afterAll(async () => {
      await instances.first?.app.close()
      await instances.second?.app.close()
      await instances.first?.database.close()
      await instances.second?.database.close()
    })

    it('serves a read from memory, and a write on one instance reaches the other’s cache', async () => {
      const { first, second, owner } = instances
      const alias = uniqueAlias()
      const slug = alias.toLowerCase().replaceAll(' ', '-')
      // The second instance remembers the slug as unknown until the create's NOTIFY reaches it.
      expect((await readPublicLink(second, slug)).status).toBe(404)
      const link = await createLink(owner, { alias })
      expect(link.alias_slug).toBe(slug)
      await expect.poll(async () => (await readPublicLink(second, slug)).status).toBe(200)
      const before = await readPublicLink(second, slug)
      // Changed behind the app's back (no NOTIFY): the second instance keeps serving its copy.
      await second.database.db.execute(sql`update links set alias = 'Changed quietly' where id = ${link.id}`)
      expect(await readPublicLink(second, link.alias_slug)).toEqual(before)

      const disabled = await owner.request({
        method: 'PUT',
        url: `/api/links/${link.id}`,
        payload: { enabled: false },
      })
      expect(disabled.statusCode).toBe(200)
      // The writer's own cache is clean when the write returns; the other hears the commit's NOTIFY.
      expect((await readPublicLink(first, link.alias_slug)).status).toBe(404)
      await expect.poll(async () => (await readPublicLink(second, link.alias_slug)).status).toBe(404)
    })

    it('a slug change on one instance: the other forgets the old slug and its remembered miss of the new one', async () => {
      const { second, owner } = instances
      const link = await createLink(owner)
      const newSlug = `${link.alias_slug}-renamed`
      expect((await readPublicLink(second, link.alias_slug)).status).toBe(200)
      expect((await readPublicLink(second, newSlug)).status).toBe(404)
      const renamed = await owner.request({
        method: 'PUT',
        url: `/api/links/${link.id}`,
        payload: { alias_slug: newSlug },
      })
      expect(renamed.statusCode, renamed.body).toBe(200)
      await expect.poll(async () => (await readPublicLink(second, newSlug)).status).toBe(200)
      expect((await readPublicLink(second, link.alias_slug)).status).toBe(404)
    })

    it('a link created on one instance is served by the other once the commit’s notice arrives, though it remembered the slug as unknown', async () => {
      const { second, owner } = instances
      const alias = uniqueAlias()
      const slug = alias.toLowerCase().replaceAll(' ', '-')
      expect((await readPublicLink(second, slug)).status).toBe(404)
      await createLink(owner, { alias })
      await expect.poll(async () => (await readPublicLink(second, slug)).status).toBe(200)
    })

    it('a delete on one instance removes the link from the other’s cache', async () => {
      const { first, second, owner, stranger } = instances
      const link = await createLink(owner)
      expect((await readPublicLink(second, link.alias_slug)).status).toBe(200)
      // Someone else's delete, even with an empty JSON body, is 404 and changes nothing.
      const foreign = await stranger.request({
        method: 'DELETE',
        url: `/api/links/${link.id}`,
        headers: { 'content-type': 'application/json' },
      })
      expect(foreign.statusCode).toBe(404)
      expect((await readPublicLink(first, link.alias_slug)).status).toBe(200)
      const deleted = await owner.request({
        method: 'DELETE',
        url: `/api/links/${link.id}`,
        headers: { 'content-type': 'application/json' },
      })
      expect(deleted.statusCode).toBe(200)
      expect((await readPublicLink(first, link.alias_slug)).status).toBe(404)
      await expect.poll(async () => (await readPublicLink(second, link.alias_slug)).status).toBe(404)
    })

    it('a signed-in list of links: a create or a delete on one instance shows in the other’s list', async () => {
      const { second, owner } = instances
      const listIds = async () => {
        const response = await second.app.inject({
          method: 'GET',
          url: '/api/links',
          cookies: { ql_session: owner.sessionToken },
        })
        return (response.json().data as { id: string }[]).map((link) => link.id)
      }
      const before = await listIds()
      const link = await createLink(owner)
      await expect.poll(listIds).toEqual([link.id, ...before])
      const deleted = await owner.request({ method: 'DELETE', url: `/api/links/${link.id}` })
      expect(deleted.statusCode).toBe(200)
      await expect.poll(listIds).toEqual(before)
    })

    it('a logout on one instance ends the session on the other, which had it cached', async () => {
      const { first, second } = instances
      const caller = await signInTestUser(first)
      const token = caller.sessionToken
      const me = () =>
        second.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { ql_session: token } })
      expect((await me()).statusCode).toBe(200)
      const logout = await caller.request({ method: 'POST', url: '/api/auth/logout' })
      expect(logout.statusCode).toBeLessThan(300)
      // The writer forgets at once; the other instance when the commit's notice arrives.
      const onFirst = await first.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        cookies: { ql_session: token },
      })
      expect(onFirst.statusCode).toBe(401)
      await expect.poll(async () => (await me()).statusCode).toBe(401)
    })

    it('a username claimed on one instance shows in the other’s cached session', async () => {
      const { second } = instances
      const caller = await signInTestUser(instances.first)
      const me = async () =>
        (
          await second.app.inject({
            method: 'GET',
            url: '/api/auth/me',
            cookies: { ql_session: caller.sessionToken },
          })
        ).json().data
      expect((await me()).username ?? null).toBeNull()
      const username = `cache_${Date.now().toString(36)}`
      const claimed = await caller.request({
        method: 'POST',
        url: '/api/users/username',
        payload: { username },
      })
      expect(claimed.statusCode, claimed.body).toBe(200)
      await expect.poll(async () => (await me()).username).toBe(username)
    })

    it('reads racing a disable never leave the link served once the write has returned', async () => {
      const { first, owner } = instances
      const link = await createLink(owner)
      expect((await readPublicLink(first, link.alias_slug)).status).toBe(200)
      const racing = Array.from({ length: 20 }, () => readPublicLink(first, link.alias_slug))
      const disabled = await owner.request({
        method: 'PUT',
        url: `/api/links/${link.id}`,
        payload: { enabled: false },
      })
      expect(disabled.statusCode).toBe(200)
      await Promise.all(racing)
      expect((await readPublicLink(first, link.alias_slug)).status).toBe(404)
    })
  })
}

describeInvalidation('PGlite, one shared client', async () => {
  const shared = await createTestDatabase()
  // Both instances use the one embedded database; only the second close really closes it.
  return { first: { ...shared, close: async () => undefined }, second: shared }
})

let postgres: RunningPostgres | undefined
afterAll(async () => {
  await postgres?.stop()
})

describeInvalidation('Postgres, a pool and a listener per instance', async () => {
  postgres = await startPostgres()
  const target = { kind: 'postgres', url: postgres.url } as const
  const first = await createDatabaseClient(target)
  await migrate(first)
  return { first, second: await createDatabaseClient(target) }
})
