import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildContracts, toKebabCase } from './build-contracts.ts'

// Inside this package's node_modules so the temporary package resolves solc and OpenZeppelin the
// same way the real one does, while git and Biome ignore it.
const scratchRoot = path.join(import.meta.dirname, '../node_modules/.cache')
let packageDirectory: string

const greeterSource = (greeting: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Named} from "./lib/Named.sol";

contract Greeter is Named {
    function greet() external pure returns (string memory) {
        return "${greeting}";
    }

    function supplyOf(IERC20 token) external view returns (uint256) {
        return token.totalSupply();
    }
}
`

beforeAll(async () => {
  await mkdir(scratchRoot, { recursive: true })
  packageDirectory = await mkdtemp(path.join(scratchRoot, 'build-contracts-'))
  await mkdir(path.join(packageDirectory, 'contracts/lib'), { recursive: true })
  await writeFile(path.join(packageDirectory, 'package.json'), '{"name": "scratch", "private": true}\n')
  await writeFile(
    path.join(packageDirectory, 'contracts/lib/Named.sol'),
    '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\n\nabstract contract Named {\n    function name() external pure returns (string memory) {\n        return "greeter";\n    }\n}\n',
  )
  await writeFile(path.join(packageDirectory, 'contracts/Greeter.sol'), greeterSource('hello'))
})

afterAll(async () => {
  await rm(packageDirectory, { recursive: true, force: true })
})

describe('toKebabCase', () => {
  it('names modules after contracts, keeping acronyms and version digits together', () => {
    expect(
      [
        'TestToken',
        'Multicall3',
        'UniswapV2Router02',
        'UniswapV2Factory',
        'WETH9',
        'PayRouter',
        'ERC20Permit',
      ].map(toKebabCase),
    ).toEqual([
      'test-token',
      'multicall3',
      'uniswap-v2-router02',
      'uniswap-v2-factory',
      'weth9',
      'pay-router',
      'erc20-permit',
    ])
  })
})

describe('buildContracts', () => {
  it('compiles every source, resolving local and package imports, into typed modules', async () => {
    const result = await buildContracts({ packageDirectory })
    expect(result.compiled).toBe(true)
    expect(result.contracts).toEqual(
      expect.arrayContaining([
        'Greeter',
        'Named',
        'UniswapV2Factory',
        'UniswapV2Pair',
        'UniswapV2Router02',
        'WETH9',
      ]),
    )
    const greeter = await import(path.join(packageDirectory, 'generated/greeter.ts'))
    expect(greeter.greeterAbi.map((item: { name?: string }) => item.name).sort()).toEqual([
      'greet',
      'name',
      'supplyOf',
    ])
    expect(greeter.greeterBytecode).toMatch(/^0x60[0-9a-f]+$/)
    expect(greeter.greeterDeployedBytecode).toMatch(/^0x60[0-9a-f]+$/)
    // An abstract contract has an ABI but nothing to deploy.
    const named = await readFile(path.join(packageDirectory, 'generated/named.ts'), 'utf8')
    expect(named).toContain('export const namedAbi = [')
    expect(named).not.toContain('namedBytecode')
  })

  it('skips the compiler while the inputs are unchanged, and rebuilds when a source changes', async () => {
    const cached = await buildContracts({ packageDirectory })
    expect(cached.compiled).toBe(false)
    expect(cached.durationMs).toBeLessThan(500)

    const greeterModule = path.join(packageDirectory, 'generated/greeter.ts')
    const before = await readFile(greeterModule, 'utf8')
    await writeFile(path.join(packageDirectory, 'contracts/Greeter.sol'), greeterSource('bonjour'))
    const rebuilt = await buildContracts({ packageDirectory })
    expect(rebuilt.compiled).toBe(true)
    expect(await readFile(greeterModule, 'utf8')).not.toBe(before)
  })

  it('fails with the compiler message when a source does not compile', async () => {
    await writeFile(
      path.join(packageDirectory, 'contracts/Broken.sol'),
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\n\ncontract Broken {\n    function f() external { undefinedThing(); }\n}\n',
    )
    await expect(buildContracts({ packageDirectory })).rejects.toThrow(/Undeclared identifier/)
  })
})
