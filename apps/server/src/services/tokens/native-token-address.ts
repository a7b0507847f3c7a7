/** The placeholder address of a chain's native token (docs/api.md#token-object). */
export const nativeTokenAddress = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
/** The zero address also stands for the native token. */
export const zeroAddress = '0x0000000000000000000000000000000000000000'

/** Whether an address (any case) is the native-token placeholder or the zero address. */
export function isNativeTokenAddress(address: string): boolean {
  const lower = address.toLowerCase()
  return lower === nativeTokenAddress.toLowerCase() || lower === zeroAddress
}
