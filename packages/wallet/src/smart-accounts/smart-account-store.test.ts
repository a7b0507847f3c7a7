import { describe, expect, it } from 'vitest'
import {
  createSmartAccountStore,
  getSmartAccountStates,
  smartAccountStorageKey,
  smartAccountStorageVersion,
} from './smart-account-store.ts'

function createMemoryStorage(entries = new Map<string, string>()) {
  return {
    entries,
    getItem: (key: string) => entries.get(key) ?? null,
    setItem: (key: string, value: string) => void entries.set(key, value),
    removeItem: (key: string) => void entries.delete(key),
  }
}

const account = '0x1111111111111111111111111111111111111111'
const allDisconnected = {
  LightAccount: { status: 'DISCONNECTED', account: null },
  MultiOwnerModularAccount: { status: 'DISCONNECTED', account: null },
  MultiOwnerLightAccount: { status: 'DISCONNECTED', account: null },
  ModularAccountV2: { status: 'DISCONNECTED', account: null },
}

describe('createSmartAccountStore', () => {
  it('starts with no chain, no connection and every account type disconnected with no account', () => {
    const store = createSmartAccountStore({ storage: createMemoryStorage() })
    const state = store.getState()
    expect(state.chainId).toBeNull()
    expect(state.connections).toEqual({})
    expect(getSmartAccountStates(state, 8453)).toEqual(allDisconnected)
  })

  it('keeps chain, connections and account states across a reload under version 14', () => {
    const storage = createMemoryStorage()
    const first = createSmartAccountStore({ storage }).getState()
    first.setChain(8453)
    first.setConnection(8453, {
      transport: 'http://127.0.0.1:3000/api/bundler/8453',
      policyId: 'p1',
      policyToken: 't',
    })
    first.setAccountState(8453, 'LightAccount', { status: 'CONNECTED', account })
    first.setAccountState(8453, 'ModularAccountV2', { status: 'CONNECTING', account: null })
    expect(JSON.parse(storage.entries.get(smartAccountStorageKey) ?? '{}').version).toBe(
      smartAccountStorageVersion,
    )

    const reloaded = createSmartAccountStore({ storage }).getState()
    expect(reloaded.chainId).toBe(8453)
    expect(reloaded.connections[8453]).toEqual({
      transport: 'http://127.0.0.1:3000/api/bundler/8453',
      policyId: 'p1',
      policyToken: 't',
    })
    expect(getSmartAccountStates(reloaded, 8453)).toEqual({
      ...allDisconnected,
      LightAccount: { status: 'CONNECTED', account },
      // An attempt that was under way when the page closed did not finish.
      ModularAccountV2: { status: 'DISCONNECTED', account: null },
    })
    expect(getSmartAccountStates(reloaded, 43114)).toEqual(allDisconnected)
  })

  it('drops state stored under another version, or malformed, and starts over', () => {
    for (const stored of [
      JSON.stringify({ version: 13, state: { chainId: 8453, connections: {}, accounts: {} } }),
      JSON.stringify({ version: 14, state: { chainId: 'base', connections: {}, accounts: {} } }),
      JSON.stringify({
        version: 14,
        state: {
          chainId: 8453,
          connections: {},
          accounts: { 8453: { LightAccount: { status: 'X', account } } },
        },
      }),
      '{not json',
    ]) {
      const storage = createMemoryStorage(new Map([[smartAccountStorageKey, stored]]))
      const state = createSmartAccountStore({ storage }).getState()
      expect(state.chainId).toBeNull()
      expect(state.accounts).toEqual({})
      expect(storage.entries.has(smartAccountStorageKey)).toBe(false)
    }
  })

  it('reset returns to the initial state and persists it', () => {
    const storage = createMemoryStorage()
    const store = createSmartAccountStore({ storage })
    store.getState().setAccountState(8453, 'LightAccount', { status: 'CONNECTED', account })
    store.getState().reset()
    expect(getSmartAccountStates(createSmartAccountStore({ storage }).getState(), 8453)).toEqual(
      allDisconnected,
    )
  })
})
