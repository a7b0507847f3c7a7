import { randomBytes } from 'node:crypto'
import { type Address, bytesToHex, getAddress, type Hex, parseSignature } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fiatTokenAbi, fiatTokenBytecode } from '../generated/fiat-token.ts'
import { signAuthorization, signCancel, signPermit, usdcDomain } from './fiat-token-signatures.ts'
import { startTestAnvil } from './start-test-anvil.ts'

const mnemonic = 'test test test test test test test test test test test junk'
const holder = mnemonicToAccount(mnemonic, { addressIndex: 2 })
const spender = mnemonicToAccount(mnemonic, { addressIndex: 3 }).address
const payee = mnemonicToAccount(mnemonic, { addressIndex: 4 }).address

let anvil: Awaited<ReturnType<typeof startTestAnvil>>
let usdc: Address

beforeAll(async () => {
  anvil = await startTestAnvil()
  const hash = await anvil.walletClient.deployContract({
    abi: fiatTokenAbi,
    bytecode: fiatTokenBytecode,
    args: ['USD Coin', 'USDC', 6, '2'],
  })
  const { contractAddress } = await anvil.publicClient.waitForTransactionReceipt({ hash })
  if (!contractAddress) throw new Error('no contract deployed')
  usdc = getAddress(contractAddress)
  await send('mint', [holder.address, 1_000_000_000n], anvil.deployer)
})

afterAll(async () => {
  await anvil?.stop()
})

const domain = () => usdcDomain(usdc, 31337)
const nonce = (): Hex => bytesToHex(randomBytes(32))
const now = async () => (await anvil.publicClient.getBlock()).timestamp

/** Sends a FiatToken call from an unlocked account and waits for it to succeed. */
async function send(functionName: string, args: readonly unknown[], account: Address = anvil.other) {
  const hash = await anvil.walletClient.writeContract({
    address: usdc,
    abi: fiatTokenAbi,
    functionName,
    args,
    account,
  } as Parameters<typeof anvil.walletClient.writeContract>[0])
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

/** What a FiatToken call reverts with (rejects when it would succeed). */
function simulate(functionName: string, args: readonly unknown[], account: Address = anvil.other) {
  return anvil.publicClient.simulateContract({
    address: usdc,
    abi: fiatTokenAbi,
    functionName,
    args,
    account,
  } as Parameters<typeof anvil.publicClient.simulateContract>[0])
}

/** `owner`'s balance or permit nonce. */
function read(functionName: 'balanceOf' | 'nonces', owner: Address): Promise<bigint> {
  return functionName === 'balanceOf'
    ? anvil.publicClient.readContract({ address: usdc, abi: fiatTokenAbi, functionName, args: [owner] })
    : anvil.publicClient.readContract({ address: usdc, abi: fiatTokenAbi, functionName, args: [owner] })
}

describe('FiatToken (the devnet USDC)', () => {
  it('has the real USDC EIP-712 domain: "USD Coin", version "2", 6 decimals', async () => {
    const [fields, name, version, chainId, verifyingContract] = await anvil.publicClient.readContract({
      address: usdc,
      abi: fiatTokenAbi,
      functionName: 'eip712Domain',
    })
    expect({ fields, name, version, chainId, verifyingContract }).toEqual({
      fields: '0x0f',
      name: 'USD Coin',
      version: '2',
      chainId: 31337n,
      verifyingContract: usdc,
    })
    expect(
      await anvil.publicClient.readContract({ address: usdc, abi: fiatTokenAbi, functionName: 'decimals' }),
    ).toBe(6)
  })

  it('permit: a signed Permit sets the allowance and spends the nonce; a replay and an expired one are refused', async () => {
    const deadline = (await now()) + 3600n
    const nonceBefore = await read('nonces', holder.address)
    const signature = parseSignature(
      await signPermit(holder, domain(), { spender, value: 5_000_000n, nonce: nonceBefore, deadline }),
    )
    const args = [
      holder.address,
      spender,
      5_000_000n,
      deadline,
      Number(signature.v),
      signature.r,
      signature.s,
    ]
    await send('permit', args)
    expect(
      await anvil.publicClient.readContract({
        address: usdc,
        abi: fiatTokenAbi,
        functionName: 'allowance',
        args: [holder.address, spender],
      }),
    ).toBe(5_000_000n)
    expect(await read('nonces', holder.address)).toBe(nonceBefore + 1n)
    await expect(simulate('permit', args)).rejects.toThrow(/EIP2612: invalid signature/)

    const expired = (await now()) - 1n
    const late = await signPermit(holder, domain(), {
      spender,
      value: 1n,
      nonce: nonceBefore + 1n,
      deadline: expired,
    })
    await expect(simulate('permit', [holder.address, spender, 1n, expired, late])).rejects.toThrow(
      /FiatTokenV2: permit is expired/,
    )
  })

  it('permit: a signature for another spender or value is refused', async () => {
    const deadline = (await now()) + 3600n
    const signature = await signPermit(holder, domain(), {
      spender,
      value: 1n,
      nonce: await read('nonces', holder.address),
      deadline,
    })
    await expect(simulate('permit', [holder.address, payee, 1n, deadline, signature])).rejects.toThrow(
      /EIP2612: invalid signature/,
    )
    await expect(simulate('permit', [holder.address, spender, 2n, deadline, signature])).rejects.toThrow(
      /EIP2612: invalid signature/,
    )
  })

  it('transferWithAuthorization: anyone submits it once; the nonce is then used', async () => {
    const authorization = {
      to: payee,
      value: 2_000_000n,
      validAfter: 0n,
      validBefore: (await now()) + 3600n,
      nonce: nonce(),
    }
    const signature = parseSignature(
      await signAuthorization(holder, domain(), 'TransferWithAuthorization', authorization),
    )
    const args = [
      holder.address,
      authorization.to,
      authorization.value,
      authorization.validAfter,
      authorization.validBefore,
      authorization.nonce,
      Number(signature.v),
      signature.r,
      signature.s,
    ]
    const payeeBefore = await read('balanceOf', payee)
    await send('transferWithAuthorization', args)
    expect(await read('balanceOf', payee)).toBe(payeeBefore + 2_000_000n)
    expect(
      await anvil.publicClient.readContract({
        address: usdc,
        abi: fiatTokenAbi,
        functionName: 'authorizationState',
        args: [holder.address, authorization.nonce],
      }),
    ).toBe(true)
    await expect(simulate('transferWithAuthorization', args)).rejects.toThrow(
      /FiatTokenV2: authorization is used or canceled/,
    )
  })

  it('transferWithAuthorization: refused before validAfter, at validBefore, and with a changed recipient', async () => {
    const t = await now()
    const sign = async (validAfter: bigint, validBefore: bigint) => {
      const authorization = { to: payee, value: 1n, validAfter, validBefore, nonce: nonce() }
      const signature = await signAuthorization(holder, domain(), 'TransferWithAuthorization', authorization)
      return [holder.address, payee, 1n, validAfter, validBefore, authorization.nonce, signature] as const
    }
    await expect(simulate('transferWithAuthorization', await sign(t + 600n, t + 3600n))).rejects.toThrow(
      /FiatTokenV2: authorization is not yet valid/,
    )
    await expect(simulate('transferWithAuthorization', await sign(0n, t - 1n))).rejects.toThrow(
      /FiatTokenV2: authorization is expired/,
    )
    const good = await sign(0n, t + 3600n)
    await expect(simulate('transferWithAuthorization', [good[0], spender, ...good.slice(2)])).rejects.toThrow(
      /FiatTokenV2: invalid signature/,
    )
  })

  it('receiveWithAuthorization: only the payee may submit it', async () => {
    const authorization = {
      to: payee,
      value: 3n,
      validAfter: 0n,
      validBefore: (await now()) + 3600n,
      nonce: nonce(),
    }
    const signature = await signAuthorization(holder, domain(), 'ReceiveWithAuthorization', authorization)
    const args = [
      holder.address,
      payee,
      3n,
      authorization.validAfter,
      authorization.validBefore,
      authorization.nonce,
      signature,
    ]
    await expect(simulate('receiveWithAuthorization', args, anvil.other)).rejects.toThrow(
      /FiatTokenV2: caller must be the payee/,
    )
    const payeeBefore = await read('balanceOf', payee)
    await send('receiveWithAuthorization', args, payee)
    expect(await read('balanceOf', payee)).toBe(payeeBefore + 3n)
    // A receive authorization is no transfer authorization: the type hash differs.
    const asTransfer = await signAuthorization(holder, domain(), 'ReceiveWithAuthorization', {
      ...authorization,
      nonce: nonce(),
    })
    await expect(
      simulate('transferWithAuthorization', [...args.slice(0, 5), nonce(), asTransfer]),
    ).rejects.toThrow(/FiatTokenV2: invalid signature/)
  })

  it('cancelAuthorization: a canceled nonce cannot be used, nor canceled twice', async () => {
    const authorization = {
      to: payee,
      value: 1n,
      validAfter: 0n,
      validBefore: (await now()) + 3600n,
      nonce: nonce(),
    }
    const cancel = parseSignature(await signCancel(holder, domain(), authorization.nonce))
    const cancelArgs = [holder.address, authorization.nonce, Number(cancel.v), cancel.r, cancel.s]
    await send('cancelAuthorization', cancelArgs)
    const signature = await signAuthorization(holder, domain(), 'TransferWithAuthorization', authorization)
    await expect(
      simulate('transferWithAuthorization', [
        holder.address,
        payee,
        1n,
        0n,
        authorization.validBefore,
        authorization.nonce,
        signature,
      ]),
    ).rejects.toThrow(/FiatTokenV2: authorization is used or canceled/)
    await expect(simulate('cancelAuthorization', cancelArgs)).rejects.toThrow(
      /FiatTokenV2: authorization is used or canceled/,
    )
  })

  it('mints for the deployer only, like TestToken', async () => {
    await expect(simulate('mint', [payee, 1n], anvil.other)).rejects.toThrow(/TestTokenUnauthorizedMinter/)
  })
})
