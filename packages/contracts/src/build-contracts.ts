import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** Where a build reads its Solidity sources and writes its typed modules. */
export type BuildContractsOptions = {
  /** Package root holding `contracts/`; defaults to this package. */
  packageDirectory?: string
  /** Rebuild even when the stored input hash matches. */
  force?: boolean
  log?: (line: string) => void
}

export type BuildContractsResult = {
  /** False when the cached output was still valid and nothing was compiled. */
  compiled: boolean
  /** Contract names a module was written for, in file-name order. */
  contracts: string[]
  durationMs: number
}

/** One compiled or imported contract, ready to be written as a module. */
type ContractArtifact = {
  name: string
  source: string
  abi: unknown[]
  bytecode: string
  deployedBytecode: string
}

type BuildInfo = { inputHash: string; solcVersion: string; files: string[] }

/** Third-party artifacts the devnet deploys, taken as built by their publishers (never recompiled). */
const importedArtifacts = [
  { name: 'UniswapV2Factory', file: '@uniswap/v2-core/build/UniswapV2Factory.json' },
  { name: 'UniswapV2Pair', file: '@uniswap/v2-core/build/UniswapV2Pair.json' },
  { name: 'UniswapV2Router02', file: '@uniswap/v2-periphery/build/UniswapV2Router02.json' },
  { name: 'WETH9', file: '@uniswap/v2-periphery/build/WETH9.json' },
  // ERC-4337: the EntryPoints and the EIP-7702 account as published; their bytecode is what lands
  // at the canonical addresses (docs/decisions/0020-smart-accounts-on-the-devnet.md).
  { name: 'EntryPointV07', file: 'aa-v07/artifacts/EntryPoint.json' },
  { name: 'EntryPointV08', file: 'aa-v08/artifacts/EntryPoint.json' },
  { name: 'Simple7702Account', file: 'aa-v08/artifacts/Simple7702Account.json' },
] as const

/**
 * Cancun runs on every chain the product targets (Base, Arbitrum One, Avalanche C-Chain) and on
 * anvil; solc's newer default could emit opcodes some of them lack.
 */
const evmVersion = 'cancun'
const buildInfoFile = 'build-info.json'
const defaultPackageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Compiles every Solidity file under `contracts/` with the bundled solc (offline, optimizer on) and
 * writes one typed module per contract to `generated/<kebab-name>.ts`, plus modules for the Uniswap
 * V2 artifacts the devnet deploys. Skips all work when a hash of the inputs (sources, OpenZeppelin
 * and solc versions, imported artifacts, this script) matches the one stored in `generated/`.
 * Fails with the compiler's formatted errors when a source does not compile, and when an import
 * cannot be found or an artifact needs library linking.
 */
export async function buildContracts(options: BuildContractsOptions = {}): Promise<BuildContractsResult> {
  const startedAt = performance.now()
  const packageDirectory = options.packageDirectory ?? defaultPackageDirectory
  const log = options.log ?? (() => {})
  const requireFromPackage = createRequire(path.join(packageDirectory, 'package.json'))
  const generatedDirectory = path.join(packageDirectory, 'generated')
  const sourceFiles = await listSolidityFiles(path.join(packageDirectory, 'contracts'))
  const solcVersion = readPackageVersion(requireFromPackage, 'solc')
  const inputHash = await hashBuildInputs(packageDirectory, sourceFiles, requireFromPackage, solcVersion)

  const previous = await readBuildInfo(generatedDirectory)
  if (
    !options.force &&
    previous?.inputHash === inputHash &&
    previous.files.every((file) => existsSync(path.join(generatedDirectory, file)))
  ) {
    return { compiled: false, contracts: [], durationMs: performance.now() - startedAt }
  }

  const compiled = await compileSources(packageDirectory, sourceFiles, requireFromPackage, log)
  const imported = await Promise.all(
    importedArtifacts.map((artifact) =>
      readImportedArtifact(requireFromPackage, artifact.name, artifact.file),
    ),
  )
  const artifacts = [...compiled, ...imported].sort((a, b) => a.name.localeCompare(b.name))
  assertUniqueNames(artifacts)

  await mkdir(generatedDirectory, { recursive: true })
  const files: string[] = []
  for (const artifact of artifacts) {
    const file = `${toKebabCase(artifact.name)}.ts`
    await writeFileAtomically(path.join(generatedDirectory, file), renderModule(artifact, solcVersion))
    files.push(file)
  }
  await removeStaleModules(generatedDirectory, files)
  const buildInfo: BuildInfo = { inputHash, solcVersion, files }
  await writeFileAtomically(
    path.join(generatedDirectory, buildInfoFile),
    `${JSON.stringify(buildInfo, null, 2)}\n`,
  )

  const durationMs = performance.now() - startedAt
  log(`compiled ${artifacts.length} contracts with solc ${solcVersion} in ${Math.round(durationMs)} ms`)
  return { compiled: true, contracts: artifacts.map((artifact) => artifact.name), durationMs }
}

/** Turns `UniswapV2Router02` into `uniswap-v2-router02` and `WETH9` into `weth9`. */
export function toKebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase()
}

/** Turns `uniswap-v2-router02` into `uniswapV2Router02`. */
function toCamelCase(kebabName: string): string {
  return kebabName.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())
}

async function listSolidityFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.sol'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort()
}

function readPackageVersion(requireFromPackage: NodeJS.Require, packageName: string): string {
  const manifest: unknown = requireFromPackage(`${packageName}/package.json`)
  if (typeof manifest === 'object' && manifest !== null && 'version' in manifest) {
    return String(manifest.version)
  }
  throw new Error(`cannot read the version of ${packageName}`)
}

async function hashBuildInputs(
  packageDirectory: string,
  sourceFiles: string[],
  requireFromPackage: NodeJS.Require,
  solcVersion: string,
): Promise<string> {
  const hash = createHash('sha256')
  hash.update(`solc ${solcVersion}\nevm ${evmVersion}\n`)
  hash.update(`openzeppelin ${readPackageVersion(requireFromPackage, '@openzeppelin/contracts')}\n`)
  hash.update(`account-abstraction ${readPackageVersion(requireFromPackage, 'aa-v08')}\n`)
  hash.update(await readFile(fileURLToPath(import.meta.url)))
  for (const file of sourceFiles) {
    hash.update(`\n${path.relative(packageDirectory, file)}\n`)
    hash.update(await readFile(file))
  }
  for (const artifact of importedArtifacts) {
    hash.update(`\n${artifact.file}\n`)
    hash.update(await readFile(requireFromPackage.resolve(artifact.file)))
  }
  return hash.digest('hex')
}

async function readBuildInfo(generatedDirectory: string): Promise<BuildInfo | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path.join(generatedDirectory, buildInfoFile), 'utf8'))
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'inputHash' in parsed &&
      typeof parsed.inputHash === 'string' &&
      'solcVersion' in parsed &&
      typeof parsed.solcVersion === 'string' &&
      'files' in parsed &&
      Array.isArray(parsed.files) &&
      parsed.files.every((file) => typeof file === 'string')
    ) {
      return { inputHash: parsed.inputHash, solcVersion: parsed.solcVersion, files: parsed.files }
    }
    return undefined
  } catch {
    return undefined
  }
}

type SolcOutputContract = {
  abi?: unknown[]
  evm?: {
    bytecode?: { object?: string; linkReferences?: Record<string, unknown> }
    deployedBytecode?: { object?: string }
  }
}

type SolcOutput = {
  errors?: { severity: string; formattedMessage?: string; message: string }[]
  contracts?: Record<string, Record<string, SolcOutputContract>>
}

type Solc = { compile(input: string, callbacks: { import(importPath: string): ImportResult }): string }
type ImportResult = { contents: string } | { error: string }

async function compileSources(
  packageDirectory: string,
  sourceFiles: string[],
  requireFromPackage: NodeJS.Require,
  log: (line: string) => void,
): Promise<ContractArtifact[]> {
  if (sourceFiles.length === 0) return []
  const sources: Record<string, { content: string }> = {}
  for (const file of sourceFiles) {
    sources[toSourceUnitName(packageDirectory, file)] = { content: await readFile(file, 'utf8') }
  }
  const outputSelection: Record<string, Record<string, string[]>> = {}
  for (const unit of Object.keys(sources)) {
    outputSelection[unit] = { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] }
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion, outputSelection },
  }

  // Loading the bundled soljson takes most of a second, so it only happens when something changed.
  const solc = (await import('solc')).default as Solc
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (importPath) => readImport(packageDirectory, requireFromPackage, importPath),
    }),
  ) as SolcOutput

  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  for (const warning of (output.errors ?? []).filter((error) => error.severity !== 'error')) {
    log(warning.formattedMessage ?? warning.message)
  }
  if (errors.length > 0) {
    throw new Error(
      `Solidity compilation failed:\n${errors.map((error) => error.formattedMessage ?? error.message).join('\n')}`,
    )
  }

  const artifacts: ContractArtifact[] = []
  for (const unit of Object.keys(sources)) {
    for (const [name, contract] of Object.entries(output.contracts?.[unit] ?? {})) {
      const linkReferences = contract.evm?.bytecode?.linkReferences ?? {}
      if (Object.keys(linkReferences).length > 0) {
        throw new Error(`${unit}:${name} needs library linking, which the build does not support`)
      }
      artifacts.push({
        name,
        source: unit,
        abi: contract.abi ?? [],
        bytecode: toHex(contract.evm?.bytecode?.object ?? ''),
        deployedBytecode: toHex(contract.evm?.deployedBytecode?.object ?? ''),
      })
    }
  }
  return artifacts
}

/** Source unit names are paths relative to the package (`contracts/TestToken.sol`), always with `/`. */
function toSourceUnitName(packageDirectory: string, file: string): string {
  return path.relative(packageDirectory, file).split(path.sep).join('/')
}

/** Resolves an import solc asks for: our own sources first, then packages in node_modules. */
function readImport(
  packageDirectory: string,
  requireFromPackage: NodeJS.Require,
  importPath: string,
): ImportResult {
  const candidates = [path.join(packageDirectory, importPath)]
  const packageName = importPath.startsWith('@')
    ? importPath.split('/').slice(0, 2).join('/')
    : importPath.split('/')[0]
  if (packageName) {
    try {
      const packageRoot = path.dirname(requireFromPackage.resolve(`${packageName}/package.json`))
      candidates.push(path.join(packageRoot, importPath.slice(packageName.length)))
    } catch {
      // Not a package name; the local candidate is the only one.
    }
  }
  for (const candidate of candidates) {
    if (existsSync(candidate)) {
      // solc's import callback is synchronous, so this read has to be too.
      return { contents: readFileSync(candidate, 'utf8') }
    }
  }
  return { error: `import not found: ${importPath} (looked in ${candidates.join(', ')})` }
}

type PublishedArtifact = {
  abi?: unknown[]
  evm?: {
    bytecode?: { object?: string; linkReferences?: Record<string, unknown> }
    deployedBytecode?: { object?: string }
  }
  bytecode?: string
}

async function readImportedArtifact(
  requireFromPackage: NodeJS.Require,
  name: string,
  file: string,
): Promise<ContractArtifact> {
  const artifact = JSON.parse(await readFile(requireFromPackage.resolve(file), 'utf8')) as PublishedArtifact
  const bytecode = artifact.evm?.bytecode?.object ?? artifact.bytecode ?? ''
  const deployedBytecode = artifact.evm?.deployedBytecode?.object ?? ''
  if (!Array.isArray(artifact.abi) || bytecode.length === 0) {
    throw new Error(`${file} has no ABI or bytecode`)
  }
  if (Object.keys(artifact.evm?.bytecode?.linkReferences ?? {}).length > 0 || bytecode.includes('__')) {
    throw new Error(`${file} needs library linking, which the build does not support`)
  }
  return {
    name,
    source: file,
    abi: artifact.abi,
    bytecode: toHex(bytecode),
    deployedBytecode: toHex(deployedBytecode),
  }
}

function toHex(bytecode: string): string {
  if (bytecode.length === 0) return '0x'
  return bytecode.startsWith('0x') ? bytecode : `0x${bytecode}`
}

function assertUniqueNames(artifacts: ContractArtifact[]): void {
  const seen = new Map<string, string>()
  for (const artifact of artifacts) {
    const other = seen.get(artifact.name)
    if (other) throw new Error(`two contracts are named ${artifact.name}: ${other} and ${artifact.source}`)
    seen.set(artifact.name, artifact.source)
  }
}

function renderModule(artifact: ContractArtifact, solcVersion: string): string {
  const baseName = toCamelCase(toKebabCase(artifact.name))
  const origin = artifact.source.endsWith('.sol')
    ? `${artifact.source}, compiled with solc ${solcVersion} (optimizer on, evm ${evmVersion})`
    : `the published artifact ${artifact.source}`
  const lines = [
    `// Generated by packages/contracts/src/build-contracts.ts from ${origin}. Do not edit.`,
    '',
    `export const ${baseName}Abi = ${JSON.stringify(artifact.abi, null, 2)} as const`,
  ]
  if (artifact.bytecode !== '0x') {
    lines.push('', `export const ${baseName}Bytecode = '${artifact.bytecode}' as const`)
  }
  if (artifact.deployedBytecode !== '0x') {
    lines.push('', `export const ${baseName}DeployedBytecode = '${artifact.deployedBytecode}' as const`)
  }
  return `${lines.join('\n')}\n`
}

/** Writes through a temporary file so a concurrent build or reader never sees half a module. */
async function writeFileAtomically(file: string, contents: string): Promise<void> {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  await writeFile(temporary, contents)
  await rename(temporary, file)
}

async function removeStaleModules(generatedDirectory: string, keep: string[]): Promise<void> {
  const entries = await readdir(generatedDirectory)
  const stale = entries.filter((entry) => entry.endsWith('.ts') && !keep.includes(entry))
  await Promise.all(stale.map((entry) => rm(path.join(generatedDirectory, entry), { force: true })))
}

const isMainModule = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href
if (isMainModule) {
  const result = await buildContracts({ log: (line) => console.log(line) })
  console.log(
    result.compiled
      ? `contracts: wrote ${result.contracts.length} modules in ${Math.round(result.durationMs)} ms`
      : `contracts: up to date (${Math.round(result.durationMs)} ms)`,
  )
}
