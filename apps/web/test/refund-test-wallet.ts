type WalletRequest = { method: string; params?: unknown }

export type RefundTestWallet = ReturnType<typeof installRefundTestWallet>

/**
 * A minimal EIP-1193 wallet announced by EIP-6963, for the status page's refund: it starts on
 * Avalanche connected as `first`, a test may change its account, it answers every send with
 * `refundHash` and every receipt as a successful call of `payRouter` from `payer`; `personal_sign`
 * goes to `sign` when given (the deposit status page's refund-address message).
 */
export function installRefundTestWallet(options: {
  first: string
  payer: string
  payRouter: string
  refundHash: string
  sign?: (message: `0x${string}`, account: string) => Promise<string>
}) {
  const { payer, payRouter, refundHash } = options
  const requests: WalletRequest[] = []
  const listeners = new Map<string, Set<(value: unknown) => void>>()
  let account = options.first
  let chainId = 43114
  let isConnected = false
  const emit = (event: string, value: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(value)
  }
  const provider = {
    async request({ method, params }: WalletRequest): Promise<unknown> {
      requests.push({ method, params })
      switch (method) {
        case 'eth_requestAccounts':
          isConnected = true
          return [account]
        case 'eth_accounts':
          return isConnected ? [account] : []
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`
        case 'wallet_switchEthereumChain': {
          const [{ chainId: next }] = params as [{ chainId: string }]
          chainId = Number.parseInt(next, 16)
          emit('chainChanged', next)
          return null
        }
        case 'wallet_requestPermissions':
        case 'wallet_getPermissions':
          return [{ parentCapability: 'eth_accounts' }]
        case 'wallet_revokePermissions':
          isConnected = false
          return null
        case 'eth_sendTransaction':
          return refundHash
        case 'eth_getTransactionReceipt':
          return {
            blockHash: `0x${'11'.repeat(32)}`,
            blockNumber: '0x10',
            contractAddress: null,
            cumulativeGasUsed: '0x5208',
            effectiveGasPrice: '0x1',
            from: payer.toLowerCase(),
            gasUsed: '0x5208',
            logs: [],
            logsBloom: `0x${'0'.repeat(512)}`,
            status: '0x1',
            to: payRouter,
            transactionHash: refundHash,
            transactionIndex: '0x0',
            type: '0x2',
          }
        case 'eth_blockNumber':
          return '0x10'
        case 'personal_sign': {
          const [message, signer] = params as [`0x${string}`, string]
          if (!options.sign) throw Object.assign(new Error('unsupported personal_sign'), { code: 4200 })
          return options.sign(message, signer)
        }
        default:
          throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 })
      }
    },
    on(event: string, listener: (value: unknown) => void) {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
    },
    removeListener(event: string, listener: (value: unknown) => void) {
      listeners.get(event)?.delete(listener)
    },
  }
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: Object.freeze({
          info: {
            uuid: '6f1c1e0e-0000-4000-8000-000000000002',
            name: 'Test Wallet',
            icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
            rdns: 'dev.quicklinks.testwallet',
          },
          provider,
        }),
      }),
    )
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  return {
    requests,
    /** The wallet's user switches to another account. */
    useAccount: (next: string) => {
      account = next
      emit('accountsChanged', [next])
    },
  }
}
