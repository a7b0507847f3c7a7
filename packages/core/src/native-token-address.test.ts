import { describe, expect, it } from 'vitest'
import {
  isNativeTokenAddress,
  isSameTokenAddress,
  nativeTokenAddress,
  toTokenKey,
  zeroAddress,
} from './native-token-address.ts'

const usdc = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'

describe('native token address', () => {
  it('reads the all-e placeholder in any case and the zero address as native, and nothing else', () => {
    expect(isNativeTokenAddress(nativeTokenAddress)).toBe(true)
    expect(isNativeTokenAddress(nativeTokenAddress.toLowerCase())).toBe(true)
    expect(isNativeTokenAddress(nativeTokenAddress.toUpperCase().replace('0X', '0x'))).toBe(true)
    expect(isNativeTokenAddress(zeroAddress)).toBe(true)
    expect(isNativeTokenAddress(usdc)).toBe(false)
  })

  it('keys every spelling of native as the lowercase placeholder and a token by its lowercase address', () => {
    expect(toTokenKey(zeroAddress)).toBe(nativeTokenAddress.toLowerCase())
    expect(toTokenKey(nativeTokenAddress)).toBe(nativeTokenAddress.toLowerCase())
    expect(toTokenKey(usdc)).toBe(usdc.toLowerCase())
    expect(isSameTokenAddress(zeroAddress, nativeTokenAddress)).toBe(true)
    expect(isSameTokenAddress(usdc.toLowerCase(), usdc)).toBe(true)
    expect(isSameTokenAddress(usdc, nativeTokenAddress)).toBe(false)
  })
})
