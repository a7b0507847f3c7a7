import { create } from 'zustand'

/**
 * Auth-return parameters (docs/product.md#auth-return-params). A sign-in that leaves the page comes
 * back with these in the address: a magic link in the query, a social login's redirect in the
 * fragment (never sent to a server; docs/signer.md#oauth-callback). They are read once on load into
 * `useAuthReturnStore` for the sign-in flow to consume, then removed from the address; every later
 * `history.replaceState` strips them too, so they never linger in the address bar or history. A
 * social login's outcome is acted on only with this tab's attempt secret (`attempt`), which the SDK
 * checks: one in the query, or with another secret, is a crafted link and is refused.
 */
export const authReturnParamNames = [
  'bundle',
  'orgId',
  'status',
  'oauthBundle',
  'oauth-bundle',
  'org-id',
  'idToken',
  'id_token',
  'accessToken',
  'access_token',
  'isSignup',
  'is-signup',
  'otpId',
  'otp_id',
  'email',
  'authProvider',
  'auth-provider',
  'oauthError',
  'oauth_error',
  'encryptedPayload',
  'encrypted-payload',
  'multiFactors',
  'multi-factors',
  'attempt',
] as const

export type AuthReturnParamName = (typeof authReturnParamNames)[number]
export type AuthReturnParams = Partial<Record<AuthReturnParamName, string>>

const paramNameSet: ReadonlySet<string> = new Set(authReturnParamNames)

type AuthReturnState = {
  /** The parameters found on load; empty when the page was not an auth return. */
  params: AuthReturnParams
  /** Returns the captured parameters and forgets them, so a flow handles them only once. */
  consume: () => AuthReturnParams
}

export const useAuthReturnStore = create<AuthReturnState>()((set, get) => ({
  params: {},
  consume: () => {
    const { params } = get()
    set({ params: {} })
    return params
  },
}))

export function isAuthReturnParamName(name: string): name is AuthReturnParamName {
  return paramNameSet.has(name)
}

/** The auth-return parameters of a query string (first value of each). */
export function readAuthReturnParams(search: string): AuthReturnParams {
  const params: AuthReturnParams = {}
  for (const [name, value] of new URLSearchParams(search)) {
    if (isAuthReturnParamName(name) && params[name] === undefined) params[name] = value
  }
  return params
}

/** The auth-return parameters of a social login's redirect, in the fragment (`#status=…&attempt=…`). */
export function readFragmentReturnParams(hash: string): AuthReturnParams {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash
  if (!fragment.includes('=')) return {}
  const params = readAuthReturnParams(fragment)
  return params.status === undefined ? {} : params
}

/**
 * The same URL without auth-return parameters; other parameters, their order and the hash stay.
 * Relative URLs stay relative.
 */
export function stripAuthReturnParams(url: string): string {
  const queryStart = url.indexOf('?')
  if (queryStart === -1) return url
  const hashStart = url.indexOf('#', queryStart)
  const query = url.slice(queryStart + 1, hashStart === -1 ? undefined : hashStart)
  const kept = new URLSearchParams()
  let removed = false
  for (const [name, value] of new URLSearchParams(query)) {
    if (isAuthReturnParamName(name)) removed = true
    else kept.append(name, value)
  }
  if (!removed) return url
  const rest = kept.toString()
  const hash = hashStart === -1 ? '' : url.slice(hashStart)
  return `${url.slice(0, queryStart)}${rest.length > 0 ? `?${rest}` : ''}${hash}`
}

let installedOn: History | undefined

/**
 * Captures the auth-return parameters of the current address into the store, removes them from
 * the address, and makes every later `history.replaceState` strip them (the router replaces
 * through it). Call once, before the router is created. Returns what was captured.
 */
export function captureAuthReturnParams(win: Window = window): AuthReturnParams {
  const history = win.history
  if (installedOn !== history) {
    const replaceState = history.replaceState.bind(history)
    history.replaceState = (data: unknown, unused: string, url?: string | URL | null) => {
      if (url === undefined || url === null) return replaceState(data, unused, url)
      return replaceState(data, unused, stripAuthReturnParams(String(url)))
    }
    installedOn = history
  }

  // A social login's outcome comes in the fragment; one in the query (old or crafted) is read
  // only to be refused with a message, and a fragment outcome replaces it whole.
  const fromFragment = readFragmentReturnParams(win.location.hash)
  const fromQuery = readAuthReturnParams(win.location.search)
  const params =
    fromFragment.status === undefined
      ? fromQuery
      : {
          ...(fromQuery.bundle === undefined ? {} : { bundle: fromQuery.bundle }),
          ...(fromQuery.orgId === undefined ? {} : { orgId: fromQuery.orgId }),
          ...fromFragment,
        }
  if (Object.keys(params).length > 0) {
    useAuthReturnStore.setState({ params })
    const { pathname, search } = win.location
    const hash = fromFragment.status === undefined ? win.location.hash : ''
    history.replaceState(history.state, '', `${pathname}${search}${hash}`)
  }
  return params
}
