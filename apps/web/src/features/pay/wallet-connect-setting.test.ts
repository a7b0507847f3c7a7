import { describe, expect, it, vi } from 'vitest'
import { createConnector } from 'wagmi'
import { base } from 'wagmi/chains'
import {
  getWalletConnectSetting,
  loadWalletConnectConnector,
  walletConnectLoadFailedMessage,
  walletConnectNotConfiguredMessage,
  walletConnectSettingsFailedMessage,
} from './wallet-connect-setting'

const projectId = '0123456789abcdef0123456789abcdef'
const fakeConnector = createConnector(() => ({}) as never)

describe('the pay modal’s WalletConnect setting', () => {
  it('makes the connector from the project id GET /api/config gives', async () => {
    const loadConnector = vi.fn(async () => fakeConnector)
    const setting = await getWalletConnectSetting({
      getConfig: async () => ({ routingProvider: 'local', walletConnectProjectId: projectId }),
      loadConnector,
    })
    expect(setting).toEqual({ isAvailable: true, projectId, connector: fakeConnector })
    expect(loadConnector).toHaveBeenCalledWith(projectId)
  })

  it('is off, saying the server has none, when the id is null or absent, and loads no connector', async () => {
    const loadConnector = vi.fn(async () => fakeConnector)
    for (const config of [
      { routingProvider: 'local' as const, walletConnectProjectId: null },
      { routingProvider: 'squid' as const },
    ]) {
      expect(await getWalletConnectSetting({ getConfig: async () => config, loadConnector })).toEqual({
        isAvailable: false,
        reason: walletConnectNotConfiguredMessage,
      })
    }
    expect(walletConnectNotConfiguredMessage).toBe('WalletConnect is not configured on this server.')
    expect(loadConnector).not.toHaveBeenCalled()
  })

  it('is off with its own reason when the settings or the connector did not load', async () => {
    const down = await getWalletConnectSetting({
      getConfig: async () => {
        throw new Error('Failed to load settings')
      },
    })
    expect(down).toEqual({ isAvailable: false, reason: walletConnectSettingsFailedMessage })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const broken = await getWalletConnectSetting({
      getConfig: async () => ({ routingProvider: 'local', walletConnectProjectId: projectId }),
      loadConnector: async () => {
        throw new TypeError('Failed to fetch dynamically imported module')
      },
    })
    warn.mockRestore()
    expect(broken).toEqual({ isAvailable: false, reason: walletConnectLoadFailedMessage })
  })

  it("loads wagmi's WalletConnect connector on demand", async () => {
    const connectorFn = await loadWalletConnectConnector(projectId)
    // Made, not started: its provider (and the relay) waits until wagmi sets the connector up.
    const connector = connectorFn({ chains: [base], emitter: {}, storage: null, transports: {} } as never)
    expect(connector).toMatchObject({ id: 'walletConnect', type: 'walletConnect', name: 'WalletConnect' })
  })

  it('starts no WalletConnect provider when wagmi sets the connector up, only on connect', async () => {
    const connectorFn = await loadWalletConnectConnector(projectId)
    const connector = connectorFn({ chains: [base], emitter: {}, storage: null, transports: {} } as never)
    const getProvider = vi.fn(async () => undefined)
    const withSpy = { ...connector, getProvider }
    await withSpy.setup?.call(withSpy)
    expect(getProvider).not.toHaveBeenCalled()
    await withSpy.connect.call(withSpy).catch(() => undefined)
    expect(getProvider).toHaveBeenCalled()
  })
})
