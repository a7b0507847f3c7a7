import type { SignerSms } from '../../delivery.ts'
import { productName } from './render-mail-layout.ts'

/** The sign-in text message. */
export function renderCodeSms(input: { to: string; code: string }): SignerSms {
  return { to: input.to, body: `Your ${productName} code is ${input.code}. It expires in 10 minutes.` }
}
