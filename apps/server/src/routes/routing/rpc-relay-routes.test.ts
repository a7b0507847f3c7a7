import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import { type AnvilProcess, spawnAnvil } from '@quicklinks/devnet/spawn-anvil'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { writeTestDeployment } from '../../../test/link-test-fixtures.ts'
import { createSession } from '../../services/sessions/create-session.ts'
import { getOrCreateUser } from '../../services/users/get-or-create-user.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const owner = mnemonicToAccount(devnetMnemonic, { addressIndex: 0 })
const stranger = mnemonicToAccount(devnetMnemonic, { addressIndex: 1 })

describe('POST /api/{provider}/rpc/{chainId}', () => {
  let anvil: AnvilProcess
  let testApp: TestApp | undefined
  beforeAll(async () => {
    anvil = await spawnAnvil({
      host: '127.0.0.1',
      port: await getFreePort(),
      chainId: 8453,
      mnemonic: devnetMnemonic,
      accountCount: 2,
    })
  }, 60_000)
  afterAll(async () => {
    await anvil?.stop()
  })
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  /** The app on anvil as Base, and `owner` (account 0) signed in. */
  async function startSignedIn() {
    testApp = await buildTestApp({ rpcUrls: { 8453: anvil.rpcUrl } })
    writeTestDeployment(testApp)
    const user = await getOrCreateUser(testApp.database.db, { address: owner.address.toLowerCase() })
    const { token } = await createSession(testApp.database.db, { userId: user.id })
    const app = testApp.app
    return (url: string, payload: unknown, signedIn = true) =>
      app.inject({
        method: 'POST',
        url,
        payload: payload as Record<string, unknown>,
        cookies: { csrf_token: csrf, ...(signedIn ? { ql_session: token } : {}) },
        headers: { 'x-csrf-token': csrf },
      })
  }

  const call = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id: 1, method, params })

  it("answers the chain's own JSON-RPC result to a signed-in user", async () => {
    const post = await startSignedIn()
    const response = await post('/api/local/rpc/8453', call('eth_chainId'))
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x2105' })
  })

  it('answers 401 to a signed-out caller and 404 for a chain the catalogue lacks', async () => {
    const post = await startSignedIn()
    expect((await post('/api/local/rpc/8453', call('eth_chainId'), false)).statusCode).toBe(401)
    expect((await post('/api/local/rpc/10', call('eth_chainId'))).statusCode).toBe(404)
  })

  it('refuses methods that sign on the node or change its state', async () => {
    const post = await startSignedIn()
    for (const method of ['eth_sendTransaction', 'anvil_setBalance', 'eth_accounts', 'personal_sign']) {
      const response = await post('/api/local/rpc/8453', call(method))
      expect(response.statusCode, method).toBe(422)
    }
  })

  it("sends a raw transaction signed by the user's own key and refuses one signed by another", async () => {
    const post = await startSignedIn()
    const transaction = {
      chainId: 8453,
      to: stranger.address,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1n,
    }
    const foreign = await stranger.signTransaction({ ...transaction, nonce: 0, to: owner.address })
    const refused = await post('/api/local/rpc/8453', call('eth_sendRawTransaction', [foreign]))
    expect(refused.statusCode).toBe(422)
    expect(refused.json().error.message).toBe('Only transactions signed by your own wallet are sent.')

    const own = await owner.signTransaction({ ...transaction, nonce: 0 })
    const sent = await post('/api/local/rpc/8453', call('eth_sendRawTransaction', [own]))
    expect(sent.statusCode).toBe(200)
    const hash = (sent.json() as { result: string }).result
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    const receipt = await post('/api/local/rpc/8453', call('eth_getTransactionReceipt', [hash]))
    expect((receipt.json() as { result: { from: string } }).result.from).toBe(owner.address.toLowerCase())
  })
})
