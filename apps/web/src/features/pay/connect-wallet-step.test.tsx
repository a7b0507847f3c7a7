import type { RoutingChain } from '@quicklinks/core/api/routing'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { createConnector, WagmiProvider } from 'wagmi'
import { ConnectWalletStep } from './connect-wallet-step'
import { getPayWagmiConfig } from './wagmi-config'
import {
  type WalletConnectSetting,
  walletConnectKeys,
  walletConnectNotConfiguredMessage,
  walletConnectSettingsFailedMessage,
} from './wallet-connect-setting'

// A failed setting is asked again on mount; the server's settings stay unreachable here.
vi.mock('../../lib/public-config', () => ({
  getPublicConfig: async () => {
    throw new Error('Failed to load settings')
  },
}))

/**
 * Step 0's WalletConnect button as the pay modal wires it: the wagmi config made from the server's
 * setting (docs/api.md#config), the button on or off with the setting's reason.
 */

const base: RoutingChain = {
  chainId: 8453,
  networkIdentifier: 'base',
  networkName: 'Base',
  chainIconURI: '',
  type: 'evm',
  enabled: true,
  visible: true,
  nativeCurrency: { symbol: 'ETH', decimals: 18 },
  rpcUrl: '',
  blockExplorerUrl: '',
}

/** A connector that says it is WalletConnect and records the connect, which then stays pending. */
function createFakeWalletConnect(onConnect: () => void) {
  return createConnector(() => ({
    id: 'walletConnect',
    name: 'WalletConnect',
    type: 'walletConnect',
    async setup() {},
    async connect() {
      onConnect()
      return new Promise<never>(() => {})
    },
    async disconnect() {},
    async getAccounts() {
      return []
    },
    async getChainId() {
      return 8453
    },
    async getProvider() {
      return {}
    },
    async isAuthorized() {
      return false
    },
    onAccountsChanged() {},
    onChainChanged() {},
    onDisconnect() {},
  }))
}

function renderStep(setting: WalletConnectSetting) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  client.setQueryData(walletConnectKeys.setting(), setting)
  return render(
    <QueryClientProvider client={client}>
      <WagmiProvider config={getPayWagmiConfig([base], setting)} reconnectOnMount={false}>
        <ConnectWalletStep isConnected={false} onResume={() => undefined} />
      </WagmiProvider>
    </QueryClientProvider>,
  )
}

describe('ConnectWalletStep: Continue with WalletConnect', () => {
  it('is off and says the server has no project id', () => {
    renderStep({ isAvailable: false, reason: walletConnectNotConfiguredMessage })
    expect(
      screen.getByRole('button', {
        name: 'Continue with WalletConnect',
        description: 'WalletConnect is not configured on this server.',
      }),
    ).toHaveProperty('disabled', true)
  })

  it("is off and says so when the server's settings did not load", () => {
    renderStep({ isAvailable: false, reason: walletConnectSettingsFailedMessage })
    expect(
      screen.getByRole('button', {
        name: 'Continue with WalletConnect',
        description: walletConnectSettingsFailedMessage,
      }),
    ).toHaveProperty('disabled', true)
  })

  it("is on with the connector made from the server's id, and connects through it", async () => {
    const user = userEvent.setup()
    const onConnect = vi.fn()
    renderStep({
      isAvailable: true,
      projectId: 'fedcba9876543210fedcba9876543210',
      connector: createFakeWalletConnect(onConnect),
    })
    const button = screen.getByRole('button', { name: 'Continue with WalletConnect' })
    expect(button).toHaveProperty('disabled', false)
    expect(screen.queryByText(walletConnectNotConfiguredMessage)).toBeNull()
    await user.click(button)
    expect(onConnect).toHaveBeenCalledOnce()
    expect(await screen.findByRole('button', { name: /Connecting…/ })).toBeTruthy()
  })
})
