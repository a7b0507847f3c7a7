import { Wallet } from 'lucide-react'
import { Button } from '../../ui/button'
import { useCachedSessionAddress, useSmartWallet } from '../wallet/smart-wallet-session'

/**
 * 'Use my wallet' under the link's receiver field: fills in the signed-in user's smart account
 * (Settings → Wallet), so a payee is paid into the wallet they signed in with. Shown once the
 * account's address is known; says so once the field holds it.
 */
export function UseMyWalletButton(props: UseMyWalletButtonProps) {
  // Signed out (or the session not read yet): nothing to offer, and no wallet is loaded for it.
  return useCachedSessionAddress() === undefined ? null : <SmartWalletButton {...props} />
}

type UseMyWalletButtonProps = { receiver: string; onUse: (address: string) => void }

function SmartWalletButton({ receiver, onUse }: UseMyWalletButtonProps) {
  const smartWallet = useSmartWallet()
  const address = smartWallet.data?.address
  if (address === undefined) return null
  const isUsed = receiver.trim().toLowerCase() === address.toLowerCase()
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button variant="secondary" size="compact" disabled={isUsed} onClick={() => onUse(address)}>
        <Wallet aria-hidden="true" />
        Use my wallet
      </Button>
      {isUsed ? <span className="text-muted text-xs">Payments will land in your smart account.</span> : null}
    </div>
  )
}
