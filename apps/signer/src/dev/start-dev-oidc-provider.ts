import { randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair } from 'jose'
import Provider, { interactionPolicy } from 'oidc-provider'

/** A test account of the dev provider. */
export type DevOidcUser = { id: string; name: string; email: string; isEmailVerified: boolean }

/** The dev provider's test accounts (docs/signer.md#dev-oidc-provider). */
export const devOidcUsers: readonly DevOidcUser[] = [
  { id: 'alice', name: 'Alice', email: 'alice@example.com', isEmailVerified: true },
  { id: 'bob', name: 'Bob', email: 'bob@example.com', isEmailVerified: true },
  { id: 'carol', name: 'Carol', email: 'carol@example.com', isEmailVerified: true },
]

/** The OAUTH_PROVIDERS entry id of the dev provider and its client. */
export const devOidcProviderId = 'dev'
export const devOidcClientId = 'quick-links-dev'

export type DevOidcProvider = {
  /** `http://127.0.0.1:{port}`, the `iss` of its tokens. */
  issuer: string
  /** Its OAUTH_PROVIDERS entry. */
  providerConfig: { id: string; issuer: string; clientId: string; clientSecret: string; scope: string }
  close(): Promise<void>
}

/**
 * A test account by id: one of {@link devOidcUsers}, or `email:{address}` for any other e-mail
 * typed on the login page (verified, so tests and developers can use fresh addresses).
 */
function findDevOidcUser(id: string): DevOidcUser | undefined {
  const listed = devOidcUsers.find((candidate) => candidate.id === id)
  if (listed !== undefined) return listed
  const email = id.startsWith('email:') ? id.slice('email:'.length) : ''
  if (!/^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/.test(email)) return undefined
  return { id, name: email, email, isEmailVerified: true }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > 16_384) throw new Error('form too large')
    chunks.push(chunk as Buffer)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

/** The login page: one button per test account, and Cancel. Plain HTML, keyboard and screen-reader friendly. */
function renderLoginPage(uid: string, clientName: string): string {
  const buttons = devOidcUsers
    .map(
      (user) =>
        `<li><button type="submit" name="accountId" value="${escapeHtml(user.id)}">Continue as ${escapeHtml(user.name)} <span>${escapeHtml(user.email)}</span></button></li>`,
    )
    .join('')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Dev login</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:1.5rem;line-height:1.5}
main{max-width:26rem;margin:0 auto}
ul{list-style:none;padding:0;margin:1rem 0;display:grid;gap:.5rem}
button{width:100%;min-height:44px;padding:.6rem 1rem;font:inherit;text-align:left;border:1px solid #767676;border-radius:.5rem;background:Canvas;color:CanvasText;cursor:pointer}
button span{display:block;font-size:.875rem;opacity:.85}
button:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.cancel{text-align:center}
.other{display:grid;gap:.5rem;margin:0 0 1rem}
input{min-height:44px;padding:.5rem .75rem;font:inherit;border:1px solid #767676;border-radius:.5rem;background:Field;color:FieldText}
input:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
</style>
</head>
<body>
<main>
<h1>Dev login</h1>
<p>A local sign-in provider for development. Choose a test account to sign in to ${escapeHtml(clientName)}.</p>
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<ul aria-label="Test accounts">${buttons}</ul>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/login" class="other">
<label for="email">Or any other test e-mail</label>
<input id="email" name="email" type="email" required autocomplete="email" spellcheck="false">
<button type="submit">Continue with this e-mail</button>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort">
<button type="submit" class="cancel">Cancel</button>
</form>
</main>
</body>
</html>
`
}

/**
 * Starts a local OpenID Connect provider (`oidc-provider`) for dev mode and the tests: the test
 * accounts of {@link devOidcUsers} (verified e-mails), a login page that lists them and takes any
 * other e-mail as a test account, one
 * confidential client (`quick-links-dev`, client_secret_post, PKCE required) whose redirect URIs
 * are `redirectUris`. It honours `prompt=select_account` by showing the page every time. Listens on
 * `host`:`port` (0: any free port). Rejects when the port is taken.
 */
export async function startDevOidcProvider(input: {
  port: number
  host?: string
  redirectUris: string[]
  clientSecret?: string
}): Promise<DevOidcProvider> {
  const host = input.host ?? '127.0.0.1'
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(input.port, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const issuer = `http://${host}:${port}`
  const clientSecret = input.clientSecret ?? 'quick-links-dev-secret'
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'dev-oidc-1', alg: 'RS256', use: 'sig' }

  const policy = interactionPolicy.base()
  // The SDK asks for prompt=select_account; the login page is the account choice.
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0)

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: devOidcClientId,
        client_secret: clientSecret,
        client_name: 'Quick Links',
        redirect_uris: input.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    // `jti`, fresh for every token: like a real provider's (whose `at_hash` or `auth_time` differ
    // per sign-in), two sign-ins of one account within a second never give the same token, which
    // the signer's replay store would refuse as already used (docs/decisions/0036).
    claims: { openid: ['sub', 'jti'], email: ['email', 'email_verified'], profile: ['name'] },
    // The e-mail goes into the id token itself, where the signer reads it.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    features: { devInteractions: { enabled: false } },
    interactions: { policy, url: (_context, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_context, id) {
      const user = findDevOidcUser(id)
      if (user === undefined) return undefined
      return {
        accountId: user.id,
        claims: async () => ({
          sub: user.id,
          jti: randomUUID(),
          email: user.email,
          email_verified: user.isEmailVerified,
          name: user.name,
        }),
      }
    },
    // A first-party dev client: every requested scope is granted without a consent page.
    async loadExistingGrant(context) {
      const { oidc } = context
      const client = oidc.client
      const session = oidc.session
      if (client === undefined || session?.accountId === undefined) return undefined
      const grantId = oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId)
      const grant =
        grantId === undefined
          ? new oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId })
          : await oidc.provider.Grant.find(grantId)
      if (grant === undefined) return undefined
      grant.addOIDCScope(String(oidc.params?.scope ?? 'openid'))
      await grant.save()
      return grant
    },
  })
  const handleProvider = provider.callback()

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const url = new URL(request.url ?? '/', issuer)
      const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(url.pathname)
      if (match === null) return handleProvider(request, response)
      try {
        const details = await provider.interactionDetails(request, response)
        if (details.uid !== match[1]) throw new Error('interaction mismatch')
        if (request.method === 'GET' && match[2] === undefined) {
          const client = await provider.Client.find(String(details.params.client_id))
          response.writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
            'content-security-policy':
              // No form-action: the login form's answer redirects on to the app's callback (another origin).
              "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
          })
          response.end(renderLoginPage(details.uid, client?.clientName ?? 'the app'))
          return
        }
        if (request.method === 'POST' && match[2] === '/login') {
          const form = await readForm(request)
          const email = form.get('email')?.trim().toLowerCase()
          const user = findDevOidcUser(
            email !== undefined && email.length > 0 ? `email:${email}` : (form.get('accountId') ?? ''),
          )
          if (user === undefined) throw new Error('unknown test account')
          await provider.interactionFinished(
            request,
            response,
            { select_account: {}, login: { accountId: user.id } },
            { mergeWithLastSubmission: false },
          )
          return
        }
        if (request.method === 'POST' && match[2] === '/abort') {
          await provider.interactionFinished(
            request,
            response,
            { error: 'access_denied', error_description: 'The sign-in was cancelled.' },
            { mergeWithLastSubmission: false },
          )
          return
        }
        response.writeHead(405).end()
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
        response.end(`This sign-in can no longer continue (${(error as Error).message}). Start again.`)
      }
    })()
  })

  return {
    issuer,
    providerConfig: {
      id: devOidcProviderId,
      issuer,
      clientId: devOidcClientId,
      clientSecret,
      scope: 'openid email profile',
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
