import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { createSession } from '../src/services/sessions/create-session.ts'
import { getOrCreateUser } from '../src/services/users/get-or-create-user.ts'
import type { TestApp } from './build-test-app.ts'

const contracts = {
  weth: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  uniswapV2Factory: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
  uniswapV2Router: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
  multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
  wethUsdcPair: '0x7852f1234c7540cB33D2a5117a5794ACEB204b96',
  usdtUsdcPair: '0xFa803697c45c71b3f0a249DB2a17D9bF2507eEEA',
  payRouter: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
  entryPointV07: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  entryPointV08: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
  accountFactory: '0x01dbbE7d8Dc355459a3F25488FF460A86Cf37d85',
  multiOwnerAccountFactory: '0xDB310A8FF89425AEaCc84083A966b8485069c431',
  simple7702Account: '0xe6Cae83BdE06E4c305530e199D7217f42808555B',
  sponsorPaymaster: '0x2d16047575840FA28e4B119831EeD0526E3aAbaE',
}
/** Account 9 of the test mnemonic, the devnet relayer. */
const relayer = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'

export const baseUsdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
export const baseUsdt = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
export const avalancheUsdc = '0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6'
export const nativeAddress = nativeTokenAddress

/** A devnet deployment of two chains whose tokens sit at different addresses on each. */
export const testDeployment = {
  chains: [
    {
      chainId: 8453,
      name: 'Base',
      rpcUrl: 'http://127.0.0.1:8645',
      bundlerUrl: 'http://127.0.0.1:8675',
      nativeSymbol: 'ETH',
      tokens: [
        { symbol: 'USDC', address: baseUsdc, decimals: 6 },
        { symbol: 'USDT', address: baseUsdt, decimals: 6 },
        { symbol: 'WETH', address: contracts.weth, decimals: 18 },
      ],
      relayer,
      contracts,
    },
    {
      chainId: 43114,
      name: 'Avalanche',
      rpcUrl: 'http://127.0.0.1:8646',
      bundlerUrl: 'http://127.0.0.1:8676',
      nativeSymbol: 'AVAX',
      tokens: [
        { symbol: 'USDC', address: avalancheUsdc, decimals: 6 },
        { symbol: 'USDT', address: '0x8A791620dd6260079BF849Dc5567aDC3F2FdC318', decimals: 6 },
        { symbol: 'WAVAX', address: '0x610178dA211FEF7D417bC0e6FeD39F05609AD788', decimals: 18 },
      ],
      relayer,
      contracts,
    },
  ],
}

/** Writes `testDeployment` where the app's local routing provider reads it. */
export function writeTestDeployment(testApp: TestApp): void {
  const file = testApp.app.config.devnetDeploymentFile
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(testDeployment))
}

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

export type TestCaller = {
  userId: string
  /** The ql_session cookie's value. */
  sessionToken: string
  /** inject() with this user's session cookie and a valid CSRF cookie and header. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>
}

let addressCounter = 0

/** A fresh user signed in through the session service (no SIWE round trip). */
export async function signInTestUser(testApp: TestApp): Promise<TestCaller> {
  addressCounter += 1
  const address = `0x${(Date.now() * 1000 + addressCounter).toString(16).padStart(40, '0')}`
  const user = await getOrCreateUser(testApp.database.db, { address })
  const { token } = await createSession(testApp.database.db, { userId: user.id })
  return {
    userId: user.id,
    sessionToken: token,
    request: (options) =>
      testApp.app.inject({
        ...options,
        cookies: { ql_session: token, csrf_token: csrf, ...options.cookies },
        headers: { 'x-csrf-token': csrf, ...options.headers },
      }),
  }
}

/** A valid create body: a USDC link on Base. */
export function buildLinkBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    alias: 'Coffee Fund',
    receiver_address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    chain: 'base',
    chain_id: 8453,
    token_name: 'USDC',
    token_address: baseUsdc.toLowerCase(),
    message: 'Thanks for supporting!',
    ...overrides,
  }
}
