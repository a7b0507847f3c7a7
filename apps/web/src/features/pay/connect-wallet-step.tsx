import { useMemo, useState } from 'react'
import { type Connector, useConnect, useConnection, useConnectors } from 'wagmi'
import { getConnectorRdns } from './get-connector-rdns'
import { listDetectedWallets, readLegacyProvider } from './list-detected-wallets'
import {
  findCatalogueEntryByFlags,
  getWalletInstallUrl,
  isMobileDevice,
  type WalletCatalogueEntry,
} from './wallet-catalogue'
import { useWalletConnectSetting, walletConnectNotConfiguredMessage } from './wallet-connect-setting'
import { WalletStep } from './wallet-step'

export type ConnectWalletStepProps = {
  /** The wallet is connected (or reconnecting) with an address. */
  isConnected: boolean
  /** The payer picked the wallet that is already connected: go on without connecting again. */
  onResume: () => void
}

/**
 * Step 0 'Select Your Wallet' with its wallet actions: connects a detected wallet, a catalogue
 * entry's connector or WalletConnect; a catalogue wallet without a connector opens its deep link
 * on mobile, else its store or home page in a new tab. Connect errors are logged only
 * (docs/product.md#errors-wallet).
 */
export function ConnectWalletStep({ isConnected, onResume }: ConnectWalletStepProps) {
  const connection = useConnection()
  const connectors = useConnectors()
  const connect = useConnect()
  const [pendingWallet, setPendingWallet] = useState<string | null>(null)
  const detected = useMemo(() => listDetectedWallets(connectors), [connectors])
  const walletConnectConnector = connectors.find((connector) => connector.type === 'walletConnect')
  const walletConnectSetting = useWalletConnectSetting().data
  // Why the button is off: what the setting says, or 'not configured' while it is unknown.
  const walletConnectDisabledReason =
    walletConnectConnector !== undefined
      ? null
      : walletConnectSetting?.isAvailable === false
        ? walletConnectSetting.reason
        : walletConnectNotConfiguredMessage

  const connectWith = async (connector: Connector, pendingId: string) => {
    if (isConnected && connection.connector?.uid === connector.uid) {
      onResume()
      return
    }
    setPendingWallet(pendingId)
    try {
      await connect.mutateAsync({ connector })
    } catch (error) {
      // Wallet connect errors are logged only.
      console.warn('Wallet connection failed', error)
    } finally {
      setPendingWallet(null)
    }
  }
  const openCatalogueEntry = (entry: WalletCatalogueEntry) => {
    const match = connectors.find(
      (connector) =>
        entry.detect.rdns.includes(getConnectorRdns(connector) ?? '') ||
        (entry.id === 'walletconnect' && connector.type === 'walletConnect') ||
        (connector.id === 'injected' && findCatalogueEntryByFlags(readLegacyProvider())?.id === entry.id),
    )
    if (match !== undefined) {
      void connectWith(match, entry.id)
      return
    }
    const isMobile = isMobileDevice()
    const url = getWalletInstallUrl(entry, window.location.href, isMobile, navigator.userAgent)
    if (isMobile && entry.buildDeepLink !== undefined) window.location.assign(url)
    else window.open(url, '_blank', 'noopener,noreferrer')
  }

  return (
    <WalletStep
      detected={detected}
      pendingId={pendingWallet}
      walletConnectDisabledReason={walletConnectDisabledReason}
      onConnectDetected={(wallet) => {
        const connector = connectors.find((candidate) => candidate.uid === wallet.id)
        if (connector !== undefined) void connectWith(connector, wallet.id)
      }}
      onSelectCatalogue={openCatalogueEntry}
      onWalletConnect={() => {
        if (walletConnectConnector !== undefined) void connectWith(walletConnectConnector, 'walletconnect')
      }}
    />
  )
}
