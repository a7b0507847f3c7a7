import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import {
  buildLinkBody,
  nativeAddress,
  signInTestUser,
  type TestCaller,
  writeTestDeployment,
} from '../../../test/link-test-fixtures.ts'

let counter = 0
const uniqueAlias = () => `Amount ${Date.now().toString(36)} ${++counter}`

describe('a link’s fixed amount', () => {
  let testApp: TestApp
  let owner: TestCaller

  beforeAll(async () => {
    testApp = await buildTestApp()
    writeTestDeployment(testApp)
    owner = await signInTestUser(testApp)
  })
  afterAll(async () => {
    await testApp.close()
  })

  const create = (overrides: Record<string, unknown>) =>
    owner.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias: uniqueAlias(), ...overrides }),
    })

  it('is stored in its shortest form, shown to the owner and the payer, editable and clearable', async () => {
    const created = await create({ amount: '12.50' })
    expect(created.statusCode, created.body).toBe(201)
    const link = created.json().data
    expect(link.amount).toBe('12.5')
    const page = await testApp.app.inject({ method: 'GET', url: `/api/pay/links/${link.alias_slug}` })
    expect(page.json().data.amount).toBe('12.5')

    const edited = await owner.request({
      method: 'PUT',
      url: `/api/links/${link.id}`,
      payload: { amount: '0.000001' },
    })
    expect(edited.statusCode, edited.body).toBe(200)
    expect(edited.json().data.amount).toBe('0.000001')
    const untouched = await owner.request({
      method: 'PUT',
      url: `/api/links/${link.id}`,
      payload: { alias: uniqueAlias() },
    })
    expect(untouched.json().data.amount).toBe('0.000001')
    const cleared = await owner.request({
      method: 'PUT',
      url: `/api/links/${link.id}`,
      payload: { amount: null },
    })
    expect(cleared.json().data.amount).toBeNull()
    const again = await testApp.app.inject({ method: 'GET', url: `/api/pay/links/${link.alias_slug}` })
    expect(again.json().data.amount).toBeNull()
  })

  it('is null when the payer chooses', async () => {
    const created = await create({})
    expect(created.json().data.amount).toBeNull()
  })

  it('refuses more decimals than the token has, and amounts that are no positive decimal, naming amount', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { amount: '1.1234567' },
        'amount: 1.1234567 has more decimals than USDC allows (6); round it to 6 decimal places',
      ],
      [{ amount: '1e3' }, 'amount: must be a decimal string such as "12.50"'],
      [{ amount: '-1' }, 'amount: must be a decimal string such as "12.50"'],
      [{ amount: '0.00' }, 'amount: must be more than zero'],
      [{ amount: 5 }, 'amount: must be a decimal string such as "12.50"'],
    ]
    for (const [overrides, message] of cases) {
      const response = await create(overrides)
      expect(response.statusCode, JSON.stringify(overrides)).toBe(422)
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'amount', message })
    }
    // The native token of Avalanche has 18 decimals: 18 are fine, 19 are not.
    const native = { chain: 'avalanche', chain_id: 43114, token_name: 'AVAX', token_address: nativeAddress }
    expect((await create({ ...native, amount: '0.000000000000000001' })).json().data.amount).toBe(
      '0.000000000000000001',
    )
    const tooFine = await create({ ...native, amount: '0.0000000000000000001' })
    expect(tooFine.json().error.message).toBe(
      'amount: 0.0000000000000000001 has more decimals than AVAX allows (18); round it to 18 decimal places',
    )
    const link = (await create({})).json().data
    const edit = await owner.request({
      method: 'PUT',
      url: `/api/links/${link.id}`,
      payload: { amount: '3.0000001' },
    })
    expect(edit.statusCode).toBe(422)
    expect(edit.json().error.field).toBe('amount')
  })
})
