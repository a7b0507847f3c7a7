import type { Address } from 'viem'
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { SessionStorageLike } from '../persisted-session.ts'
import {
  type SmartAccountState,
  type SmartAccountStatus,
  type SmartAccountType,
  smartAccountTypes,
} from './smart-wallet-types.ts'

/** localStorage key of the smart-account state (separate from the signer session's). */
export const smartAccountStorageKey = 'quicklinks:smart-accounts'
/** The persisted app state's version (14): any other stored version is dropped. */
export const smartAccountStorageVersion = 14

/**
 * How the app reaches one chain's smart-account services: the bundler transport's URL and the gas
 * policy (id and token) its sends ask the sponsor for; null policy: the account pays.
 */
export type SmartAccountConnection = {
  transport: string
  policyId: string | null
  policyToken: string | null
}

export type SmartAccountTypeStates = Record<SmartAccountType, SmartAccountState>

export type SmartAccountStoreState = {
  /** The chain the wallet acts on; null until one is chosen. */
  chainId: number | null
  /** Per chain id. */
  connections: Record<number, SmartAccountConnection>
  /** Per chain id, every account type's status and address (see {@link getSmartAccountStates}). */
  accounts: Record<number, SmartAccountTypeStates>

  setChain(chainId: number | null): void
  setConnection(chainId: number, connection: SmartAccountConnection): void
  /** Sets one type's state on one chain (the other types keep theirs). */
  setAccountState(chainId: number, accountType: SmartAccountType, state: SmartAccountState): void
  /** Back to the initial state (sign-out): no chain, no connection, every type DISCONNECTED. */
  reset(): void
}

export type SmartAccountStore = StoreApi<SmartAccountStoreState>

export type SmartAccountStoreOptions = {
  /** Default `globalThis.localStorage`; null: nothing persists. */
  storage?: SessionStorageLike | null
  storageKey?: string
}

const disconnected: SmartAccountState = { status: 'DISCONNECTED', account: null }

/** Every type DISCONNECTED with no account: a chain's state before anything connected. */
export function createInitialSmartAccountStates(): SmartAccountTypeStates {
  return Object.fromEntries(smartAccountTypes.map((type) => [type, disconnected])) as SmartAccountTypeStates
}

/** A chain's account states, the initial ones when the chain has none yet. Pure. */
export function getSmartAccountStates(state: Pick<SmartAccountStoreState, 'accounts'>, chainId: number) {
  return state.accounts[chainId] ?? createInitialSmartAccountStates()
}

/**
 * The persisted smart-account state (chain, connections per chain id, account types per
 * chain with status and account), a zustand vanilla store like the signer store. It loads what
 * `storage` holds under version 14 (anything else, malformed data included, is removed and the
 * state starts empty) and writes every change back. A CONNECTING state loads as DISCONNECTED
 * (that attempt ended with the page). Storage failures are ignored: the state then lives as long
 * as the page.
 */
export function createSmartAccountStore(options: SmartAccountStoreOptions = {}): SmartAccountStore {
  const storageKey = options.storageKey ?? smartAccountStorageKey
  const storage =
    options.storage === undefined
      ? (globalThis.localStorage as SessionStorageLike | undefined)
      : options.storage
  const initial = storage ? readPersisted(storage, storageKey) : null

  const store = createStore<SmartAccountStoreState>()((set) => ({
    chainId: initial?.chainId ?? null,
    connections: initial?.connections ?? {},
    accounts: initial?.accounts ?? {},
    setChain: (chainId) => set({ chainId }),
    setConnection: (chainId, connection) =>
      set((state) => ({ connections: { ...state.connections, [chainId]: { ...connection } } })),
    setAccountState: (chainId, accountType, accountState) =>
      set((state) => ({
        accounts: {
          ...state.accounts,
          [chainId]: { ...getSmartAccountStates(state, chainId), [accountType]: { ...accountState } },
        },
      })),
    reset: () => set({ chainId: null, connections: {}, accounts: {} }),
  }))

  if (storage) {
    store.subscribe((state) => {
      const persisted: PersistedState = {
        chainId: state.chainId,
        connections: state.connections,
        accounts: state.accounts,
      }
      try {
        storage.setItem(storageKey, JSON.stringify({ version: smartAccountStorageVersion, state: persisted }))
      } catch {
        // A full or blocked storage: the state lasts as long as this page.
      }
    })
  }
  return store
}

type PersistedState = Pick<SmartAccountStoreState, 'chainId' | 'connections' | 'accounts'>

function readPersisted(storage: SessionStorageLike, key: string): PersistedState | null {
  let raw: string | null
  try {
    raw = storage.getItem(key)
  } catch {
    return null
  }
  if (raw === null) return null
  const state = parsePersisted(raw)
  if (state === null) {
    try {
      storage.removeItem(key)
    } catch {
      // Nothing we could remove.
    }
  }
  return state
}

const statuses: readonly SmartAccountStatus[] = ['DISCONNECTED', 'CONNECTING', 'CONNECTED', 'ERROR']

function parsePersisted(raw: string): PersistedState | null {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return null
  }
  if (!isRecord(value) || value.version !== smartAccountStorageVersion || !isRecord(value.state)) return null
  const { chainId, connections, accounts } = value.state
  if (chainId !== null && !isChainId(chainId)) return null
  if (!isRecord(connections) || !isRecord(accounts)) return null

  const parsedConnections: Record<number, SmartAccountConnection> = {}
  for (const [id, connection] of Object.entries(connections)) {
    if (!isChainId(Number(id)) || !isRecord(connection)) return null
    const { transport, policyId, policyToken } = connection
    if (typeof transport !== 'string' || !isNullableString(policyId) || !isNullableString(policyToken))
      return null
    parsedConnections[Number(id)] = { transport, policyId, policyToken }
  }

  const parsedAccounts: Record<number, SmartAccountTypeStates> = {}
  for (const [id, types] of Object.entries(accounts)) {
    if (!isChainId(Number(id)) || !isRecord(types)) return null
    const states = createInitialSmartAccountStates()
    for (const type of smartAccountTypes) {
      const entry = types[type]
      if (entry === undefined) continue
      if (!isRecord(entry)) return null
      const { status, account } = entry
      const knownStatus = statuses.find((candidate) => candidate === status)
      if (knownStatus === undefined) return null
      if (account !== null && (typeof account !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(account)))
        return null
      states[type] = {
        status: knownStatus === 'CONNECTING' ? 'DISCONNECTED' : knownStatus,
        account: account as Address | null,
      }
    }
    parsedAccounts[Number(id)] = states
  }
  return { chainId, connections: parsedConnections, accounts: parsedAccounts }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
function isChainId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0
}
function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === 'string'
}
