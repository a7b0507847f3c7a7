import { queryOptions, useQuery } from '@tanstack/react-query'
import type { CreateConnectorFn } from 'wagmi'
import { getPublicConfig, type PublicConfigSource } from '../../lib/public-config'

/** Under 'Continue with WalletConnect' when the server has no WALLETCONNECT_PROJECT_ID. */
export const walletConnectNotConfiguredMessage = 'WalletConnect is not configured on this server.'
/** When GET /api/config failed, so whether WalletConnect is configured is unknown. */
export const walletConnectSettingsFailedMessage =
  "WalletConnect is unavailable: this server's settings did not load. Reload the page to try again."
/** When the connector's chunk did not load (a deploy replaced it, the network dropped). */
export const walletConnectLoadFailedMessage = 'WalletConnect did not load. Reload the page to try again.'

/** Whether the pay modal offers WalletConnect: its connector, or why not. */
export type WalletConnectSetting =
  | { isAvailable: true; projectId: string; connector: CreateConnectorFn }
  | { isAvailable: false; reason: string }

/**
 * wagmi's WalletConnect connector for the server's project id. Imported on demand, so a server
 * without WalletConnect never sends its code, and the pay modal's chunk does not carry it. Its
 * provider and QR modal (another chunk, which calls Reown's API and relay) start only when the payer
 * picks WalletConnect: wagmi sets every connector up when the modal opens, and WalletConnect's setup
 * would start them then for every payer. The setup only listens for a session begun elsewhere,
 * which a pay page that never reconnects does not have.
 */
export async function loadWalletConnectConnector(projectId: string): Promise<CreateConnectorFn> {
  const { walletConnect } = await import('wagmi/connectors/walletConnect')
  const createWalletConnect = walletConnect({ projectId, showQrModal: true })
  return ((config) => ({ ...createWalletConnect(config), async setup() {} })) as CreateConnectorFn
}

export type WalletConnectSettingDependencies = {
  getConfig: PublicConfigSource
  loadConnector: (projectId: string) => Promise<CreateConnectorFn>
}

/**
 * The pay modal's WalletConnect: the connector made from the project id GET /api/config gives, or
 * the reason it is off (not configured, settings not loaded, connector not loaded). Never rejects.
 */
export async function getWalletConnectSetting({
  getConfig = getPublicConfig,
  loadConnector = loadWalletConnectConnector,
}: Partial<WalletConnectSettingDependencies> = {}): Promise<WalletConnectSetting> {
  let projectId: string | null | undefined
  try {
    projectId = (await getConfig()).walletConnectProjectId
  } catch {
    return { isAvailable: false, reason: walletConnectSettingsFailedMessage }
  }
  if (projectId === undefined || projectId === null || projectId === '') {
    return { isAvailable: false, reason: walletConnectNotConfiguredMessage }
  }
  try {
    return { isAvailable: true, projectId, connector: await loadConnector(projectId) }
  } catch (error) {
    console.warn('WalletConnect connector failed to load', error)
    return { isAvailable: false, reason: walletConnectLoadFailedMessage }
  }
}

export const walletConnectKeys = {
  setting: () => ['pay', 'wallet-connect'] as const,
}

/**
 * The WalletConnect setting as a query: kept for the page's life once known, asked again on the
 * next open when the settings or the connector failed to load.
 */
export function walletConnectSettingQueryOptions(
  dependencies: Partial<WalletConnectSettingDependencies> = {},
) {
  return queryOptions({
    queryKey: walletConnectKeys.setting(),
    queryFn: () => getWalletConnectSetting(dependencies),
    staleTime: (query) =>
      query.state.data === undefined ||
      query.state.data.isAvailable ||
      query.state.data.reason === walletConnectNotConfiguredMessage
        ? Number.POSITIVE_INFINITY
        : 0,
  })
}

/** The pay modal's WalletConnect setting (see `getWalletConnectSetting`). */
export function useWalletConnectSetting() {
  return useQuery(walletConnectSettingQueryOptions())
}
