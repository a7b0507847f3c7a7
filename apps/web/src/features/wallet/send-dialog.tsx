import { isNativeTokenAddress } from '@quicklinks/core/native-token-address'
import type { SmartSendInput, SmartSendResult } from '@quicklinks/wallet/smart-accounts/smart-wallet-types'
import { useEffect, useId, useMemo, useReducer, useRef, useState } from 'react'
import { type Address, encodeFunctionData, erc20Abi, type Hex } from 'viem'
import { Dialog } from '../../ui/dialog'
import { describeSendError } from './describe-send-error'
import {
  createSendDialogState,
  reduceSendDialog,
  type SendDialogChain,
  type SendDialogToken,
  tokenKey,
} from './send-dialog-state'
import { SendFormStep } from './send-form-step'
import { SendProgressStep } from './send-progress-step'
import { SendRefusedStep } from './send-refused-step'
import { SendSentStep } from './send-sent-step'
import { type SendFormProblems, toValidSend, validateSendForm } from './validate-send'

export type SendDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The smart account sending. */
  sender: Address
  chains: SendDialogChain[]
  /** The sponsor policy a send asks for; null: the account pays the gas. */
  defaultPolicyId: string | null
  send: (input: SmartSendInput) => Promise<SmartSendResult>
  getTransactionUrl: (chainId: number, hash: Hex) => string | null
  /** After an included send: refresh the balances (the dialog then shows the new one). */
  onSent: (chainId: number) => Promise<void>
}

/** The calls that move `amount` of a token: a plain value transfer for the native token, else ERC-20 transfer. */
function toTransferCall(token: SendDialogToken, recipient: Address, amount: bigint) {
  if (isNativeTokenAddress(token.address)) return { to: recipient, value: amount }
  return {
    to: token.address as Address,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] }),
  }
}

/**
 * Send from the smart account (Settings → Wallet, docs/product.md#smart-wallet): a token of one
 * of its chains, an amount and an address, checked before anything is signed; sent as one user
 * operation, sponsored under the default policy where the chain has a sponsor, with its progress,
 * the explorer link and the new balance. A sponsor refusal says why and offers to pay the gas
 * from the account instead.
 */
export function SendDialog(props: SendDialogProps) {
  // While an operation is on its way the dialog stays open (Escape, the overlay and the X do
  // nothing), so its outcome is always shown.
  const [isSending, setIsSending] = useState(false)
  return (
    <Dialog
      open={props.open}
      onOpenChange={(open) => {
        if (open || !isSending) props.onOpenChange(open)
      }}
    >
      {props.open ? <SendBody {...props} onSendingChange={setIsSending} /> : null}
    </Dialog>
  )
}

function SendBody({
  sender,
  chains,
  defaultPolicyId,
  send,
  getTransactionUrl,
  onSent,
  onOpenChange,
  onSendingChange,
}: SendDialogProps & { onSendingChange: (isSending: boolean) => void }) {
  const ids = { token: useId(), amount: useId(), recipient: useId(), status: useId() }
  const options = useMemo(
    () => chains.flatMap((chain) => chain.tokens.map((token) => ({ chain, token }))),
    [chains],
  )
  const [state, dispatch] = useReducer(reduceSendDialog, options, (initial) => {
    const funded = initial.find(({ token }) => token.balance !== null && token.balance > 0n) ?? initial[0]
    return createSendDialogState(
      funded === undefined ? '' : tokenKey(funded.chain.chainId, funded.token.address),
    )
  })
  const { form, touched, phase } = state
  const amountRef = useRef<HTMLInputElement>(null)
  const recipientRef = useRef<HTMLInputElement>(null)
  const resultRef = useRef<HTMLDivElement>(null)

  const selected = options.find(
    (option) => tokenKey(option.chain.chainId, option.token.address) === state.selectedKey,
  )
  const problems = selected === undefined ? {} : validateSendForm(form, selected.token, sender)
  // A field's problem shows once it was left, or after a submit.
  const errors: SendFormProblems = {}
  if (touched.amount === true && problems.amount !== undefined) errors.amount = problems.amount
  if (touched.recipient === true && problems.recipient !== undefined) errors.recipient = problems.recipient
  const nativeBalance =
    selected?.chain.tokens.find((token) => isNativeTokenAddress(token.address))?.balance ?? null
  const isSponsored = selected?.chain.sponsored === true && defaultPolicyId !== null

  useEffect(() => {
    onSendingChange(phase.name === 'sending')
  }, [phase.name, onSendingChange])

  useEffect(() => {
    if (phase.name === 'sent' || phase.name === 'refused' || phase.name === 'failed')
      resultRef.current?.focus()
  }, [phase.name])

  const run = async (withPolicy: boolean) => {
    if (selected === undefined) return
    const valid = toValidSend(form, selected.token, sender)
    if (valid === null) return
    const sponsored = withPolicy && isSponsored && defaultPolicyId !== null
    dispatch({ type: 'progress', sponsored, step: 'preparing' })
    try {
      const result = await send({
        chainId: selected.chain.chainId,
        calls: [toTransferCall(selected.token, valid.recipient, valid.amount)],
        ...(sponsored && defaultPolicyId !== null ? { policyId: defaultPolicyId } : {}),
        onProgress: (progress) => dispatch({ type: 'progress', sponsored, step: progress.step }),
      })
      if (!result.success) {
        dispatch({ type: 'failed', message: 'The transfer was included but reverted: nothing was sent.' })
        return
      }
      dispatch({ type: 'sent', result, amount: valid.amount, recipient: valid.recipient })
      await onSent(selected.chain.chainId).catch(() => undefined)
      dispatch({ type: 'refreshed' })
    } catch (error) {
      const failure = describeSendError(error)
      dispatch(
        failure.kind === 'refused'
          ? { type: 'refused', reason: failure.reason, message: failure.message }
          : { type: 'failed', message: failure.message },
      )
    }
  }

  const submit = () => {
    dispatch({ type: 'submit' })
    if (problems.amount !== undefined) {
      amountRef.current?.focus()
      return
    }
    if (problems.recipient !== undefined) {
      recipientRef.current?.focus()
      return
    }
    void run(true)
  }

  switch (phase.name) {
    case 'sending':
      return <SendProgressStep sponsored={phase.sponsored} step={phase.step} statusId={ids.status} />
    case 'sent':
      if (selected === undefined) break
      return (
        <SendSentStep
          phase={phase}
          token={selected.token}
          chainName={selected.chain.name}
          transactionUrl={getTransactionUrl(selected.chain.chainId, phase.result.transactionHash)}
          resultRef={resultRef}
          onDone={() => onOpenChange(false)}
        />
      )
    case 'refused':
      if (selected === undefined) break
      return (
        <SendRefusedStep
          message={phase.message}
          chain={selected.chain}
          nativeBalance={nativeBalance}
          resultRef={resultRef}
          onBack={() => dispatch({ type: 'back' })}
          onPayGas={() => void run(false)}
        />
      )
    case 'form':
    case 'failed':
      break
    default: {
      const unknownPhase: never = phase
      return unknownPhase
    }
  }
  return (
    <SendFormStep
      ids={ids}
      chains={chains}
      selectedKey={state.selectedKey}
      selected={selected}
      form={form}
      errors={errors}
      isSponsored={isSponsored}
      failureMessage={phase.name === 'failed' ? phase.message : null}
      amountRef={amountRef}
      recipientRef={recipientRef}
      resultRef={resultRef}
      dispatch={dispatch}
      onSubmit={submit}
    />
  )
}
