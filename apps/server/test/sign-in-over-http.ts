import type { LocalAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'

/** What a signed-in caller sends: the cookie header, the CSRF token, and the wallet it signed in as. */
export type HttpSession = { cookie: string; csrf: string; address: `0x${string}` }

/** The value of the `name` cookie a response sets; throws when it sets none. */
export function readSetCookie(response: Response, name: string): string {
  const cookie = response.headers.getSetCookie().find((entry) => entry.startsWith(`${name}=`))
  if (cookie === undefined) throw new Error(`no ${name} cookie`)
  return cookie.split(';', 1)[0]?.slice(name.length + 1) ?? ''
}

/**
 * Signs in with SIWE over real HTTP, as the web does, as a fresh account (or `account`, e.g. the
 * wallet SDK's `toViemAccount()`): a CSRF cookie from /health, a nonce, a signed message, POST
 * /api/auth/login.
 */
export async function signInOverHttp(
  origin: string,
  account: Pick<LocalAccount, 'address' | 'signMessage'> = privateKeyToAccount(generatePrivateKey()),
): Promise<HttpSession> {
  const csrf = readSetCookie(await fetch(`${origin}/health`), 'csrf_token')
  const { nonce } = ((await (await fetch(`${origin}/api/auth/nonce`)).json()) as { data: { nonce: string } })
    .data
  const url = new URL(origin)
  const message = createSiweMessage({
    address: account.address,
    chainId: 8453,
    domain: url.host,
    nonce,
    uri: url.origin,
    version: '1',
    issuedAt: new Date(),
  })
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, cookie: `csrf_token=${csrf}` },
    body: JSON.stringify({ message, signature: await account.signMessage({ message }) }),
  })
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`)
  return {
    cookie: `csrf_token=${csrf}; ql_session=${readSetCookie(login, 'ql_session')}`,
    csrf,
    address: account.address,
  }
}
