import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createPublicClient, http } from 'viem'
import { z } from 'zod'
import { deployDevnetChain } from './deploy-devnet-chain.ts'
import { type DevnetChainConfig, devnetAccountCount, devnetMnemonic } from './devnet-chains.ts'
import { type DeployedDevnetChain, devnetChainDeploymentSchema } from './devnet-deployment.ts'
import { getDeploymentFingerprint } from './devnet-deployment-fingerprint.ts'
import { probeRpcPort } from './probe-rpc-port.ts'
import { buildRpcUrl, spawnAnvil } from './spawn-anvil.ts'

/** A devnet chain with every field filled in, its bundler port included. */
export type ResolvedChain = DevnetChainConfig & { bundlerPort: number }

/** What each chain folder remembers: the deployment on its saved state and what produced it. */
const chainRecordSchema = z.object({
  fingerprint: z.string(),
  deployment: devnetChainDeploymentSchema.omit({ bundlerUrl: true }),
})
type ChainRecord = z.infer<typeof chainRecordSchema>

type StartAnvilChainOptions = {
  chain: ResolvedChain
  host: string
  chainDirectory: string
  log: (line: string) => void
}

type StartedAnvilChain = { deployment: DeployedDevnetChain; reused: boolean; stop: () => Promise<void> }

/**
 * Reuses the chain already running on its port with this folder's deployment, restarts it from its
 * saved anvil state, or deploys it afresh (see startDevnet); throws naming the port when another
 * program or chain holds it.
 */
export async function startAnvilChain({
  chain,
  host,
  chainDirectory,
  log,
}: StartAnvilChainOptions): Promise<StartedAnvilChain> {
  const label = `${chain.name} (${chain.chainId})`
  const rpcUrl = buildRpcUrl(host, chain.port)
  const recordFile = path.join(chainDirectory, 'chain.json')
  const stateFile = path.join(chainDirectory, 'anvil-state.json')
  const fingerprint = getDeploymentFingerprint(chain)

  const record = await readChainRecord(recordFile)
  const saved = record?.fingerprint === fingerprint ? { ...record.deployment, rpcUrl } : undefined

  const probe = await probeRpcPort(host, chain.port, rpcUrl)
  if (probe.status === 'rpc' && probe.chainId === chain.chainId && saved && (await hasDeployedCode(saved))) {
    log(`${label}: reusing the chain already running at ${rpcUrl}`)
    return { deployment: saved, reused: true, stop: async () => {} }
  }
  if (probe.status !== 'free') {
    const holder =
      probe.status === 'other'
        ? probe.detail
        : probe.chainId === chain.chainId
          ? `an Ethereum node with chain id ${probe.chainId} that lacks this data dir's devnet deployment (another data dir's devnet, or a node of your own?)`
          : `an Ethereum node with chain id ${probe.chainId}`
    throw new Error(
      `port ${chain.port} on ${host} is in use by ${holder}, so the ${label} devnet chain cannot start there. Stop that program, or run the devnet on other ports: set DEVNET_BASE_PORT for \`npm start\` or the devnet CLI, or pass \`chains: [{ chainId: ${chain.chainId}, port: <free port> }]\` to startDevnet.`,
    )
  }

  if (!saved) {
    // State that no valid record describes cannot be trusted to hold the contracts: start clean.
    if (record || existsSync(stateFile)) log(`${label}: saved state is out of date; deploying afresh`)
    await rm(chainDirectory, { recursive: true, force: true })
  }
  await mkdir(chainDirectory, { recursive: true })
  const anvil = await spawnChainAnvil({ chain, host, stateFile, label, log })
  try {
    if (saved && (await hasDeployedCode(saved))) {
      log(`${label}: restarted from saved state at ${rpcUrl}`)
      return { deployment: saved, reused: false, stop: anvil.stop }
    }
    const deployment = await deployDevnetChain({ rpcUrl, chain, log })
    const newRecord: ChainRecord = { fingerprint, deployment }
    await writeFile(recordFile, `${JSON.stringify(newRecord, null, 2)}\n`)
    return { deployment, reused: false, stop: anvil.stop }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

type SpawnChainAnvilOptions = {
  chain: ResolvedChain
  host: string
  stateFile: string
  label: string
  log: (line: string) => void
}

/** Starts anvil on the saved state; a state file anvil cannot load is set aside and the chain starts empty. */
async function spawnChainAnvil({ chain, host, stateFile, label, log }: SpawnChainAnvilOptions) {
  const spawnOnce = () =>
    spawnAnvil({
      host,
      port: chain.port,
      chainId: chain.chainId,
      mnemonic: devnetMnemonic,
      accountCount: devnetAccountCount,
      stateFile,
      log: (line) => log(`${label} anvil: ${line}`),
    })
  try {
    return await spawnOnce()
  } catch (error) {
    if (!existsSync(stateFile)) throw error
    log(`${label}: anvil could not start on the saved state; setting it aside as ${stateFile}.broken`)
    await rename(stateFile, `${stateFile}.broken`)
    return spawnOnce()
  }
}

async function readChainRecord(file: string): Promise<ChainRecord | undefined> {
  try {
    const parsed = chainRecordSchema.safeParse(JSON.parse(await readFile(file, 'utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** True when every contract and token of the deployment has code on the chain at `rpcUrl`. */
async function hasDeployedCode(deployment: DeployedDevnetChain): Promise<boolean> {
  const client = createPublicClient({ transport: http(deployment.rpcUrl, { retryCount: 0 }) })
  const addresses = [
    ...Object.values(deployment.contracts),
    ...deployment.tokens.map((token) => token.address),
  ]
  try {
    const chainId = await client.getChainId()
    if (chainId !== deployment.chainId) return false
    const codes = await Promise.all(addresses.map((address) => client.getCode({ address })))
    return codes.every((code) => code !== undefined && code !== '0x')
  } catch {
    return false
  }
}
