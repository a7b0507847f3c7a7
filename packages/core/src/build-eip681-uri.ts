/**
 * An EIP-681 payment request URI: `ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<units>`
 * for an ERC-20 transfer, `ethereum:<to>@<chainId>?value=<wei>` for the native currency (no
 * `token`). The amount is left out when it is undefined (the wallet asks for it). Amounts are
 * integers in smallest units, written in full (EIP-681 allows exponents; wallets differ on them).
 * Pure; never throws.
 */
export function buildEip681Uri(request: {
  chainId: number
  to: string
  token?: string | undefined
  amountUnits?: bigint | undefined
}): string {
  const { chainId, to, token, amountUnits } = request
  if (token === undefined) {
    return `ethereum:${to}@${chainId}${amountUnits === undefined ? '' : `?value=${amountUnits}`}`
  }
  const amount = amountUnits === undefined ? '' : `&uint256=${amountUnits}`
  return `ethereum:${token}@${chainId}/transfer?address=${to}${amount}`
}
