import type { ContactChannel } from '../auth/wallet-session'

/**
 * Where a contact change stands: the new contact is typed, then its code, then (when the account
 * already has a contact on this channel) the current contact's code; the change is submitted
 * right after the last code checks out.
 */
export type ContactChangeStep =
  | { step: 'contact'; input: string; error: string | null; isBusy: boolean }
  | {
      step: 'newCode'
      contact: string
      otpId: string
      sentAt: number
      error: string | null
      isBusy: boolean
    }
  | {
      step: 'currentCode'
      contact: string
      verificationToken: string
      /** Where the confirming code went: the current contact, or for a first one the account's other contact. */
      confirmer: { channel: ContactChannel; address: string }
      otpId: string
      sentAt: number
      error: string | null
      isBusy: boolean
    }
  | {
      /** Both codes checked out; the account's authenticator app has the last word. */
      step: 'totp'
      contact: string
      verificationToken: string
      previous: string | undefined
      error: string | null
      isBusy: boolean
    }

/** What moves a contact change on; the dialog's async work dispatches them. */
export type ContactChangeAction =
  /** The contact field was edited. */
  | { type: 'edited'; input: string }
  /** The current step's request went out. */
  | { type: 'busy' }
  /** The current step's request was refused, with the reason to show beside its field. */
  | { type: 'refused'; error: string }
  /** The typed code was edited after a refusal. */
  | { type: 'errorCleared' }
  | { type: 'newCodeSent'; contact: string; otpId: string; sentAt: number }
  | {
      type: 'confirmCodeSent'
      contact: string
      verificationToken: string
      confirmer: { channel: ContactChannel; address: string }
      otpId: string
      sentAt: number
    }
  | { type: 'resent'; otpId: string; sentAt: number }
  /** The authenticator app's code is asked for (again, with `error`), or on its way (`isBusy`). */
  | {
      type: 'totpAsked'
      contact: string
      verificationToken: string
      previous: string | undefined
      error: string | null
      isBusy: boolean
    }
  /** The proofs were spent on a refused change: from the contact again, with why. */
  | { type: 'restarted'; input: string; error: string }
  /** Back from a code step to the contact it was for. */
  | { type: 'back' }

export const initialContactChangeStep: ContactChangeStep = {
  step: 'contact',
  input: '',
  error: null,
  isBusy: false,
}

/** The contact change's transitions (docs/signer.md#contact-change). */
export function reduceContactChange(
  state: ContactChangeStep,
  action: ContactChangeAction,
): ContactChangeStep {
  switch (action.type) {
    case 'edited':
      return { step: 'contact', input: action.input, error: null, isBusy: false }
    case 'busy':
      return { ...state, error: null, isBusy: true }
    case 'refused':
      return { ...state, error: action.error, isBusy: false }
    case 'errorCleared':
      return state.error === null ? state : { ...state, error: null }
    case 'newCodeSent':
      return {
        step: 'newCode',
        contact: action.contact,
        otpId: action.otpId,
        sentAt: action.sentAt,
        error: null,
        isBusy: false,
      }
    case 'confirmCodeSent':
      return {
        step: 'currentCode',
        contact: action.contact,
        verificationToken: action.verificationToken,
        confirmer: action.confirmer,
        otpId: action.otpId,
        sentAt: action.sentAt,
        error: null,
        isBusy: false,
      }
    case 'resent':
      return state.step === 'newCode' || state.step === 'currentCode'
        ? { ...state, otpId: action.otpId, sentAt: action.sentAt, error: null }
        : state
    case 'totpAsked':
      return {
        step: 'totp',
        contact: action.contact,
        verificationToken: action.verificationToken,
        previous: action.previous,
        error: action.error,
        isBusy: action.isBusy,
      }
    case 'restarted':
      return { step: 'contact', input: action.input, error: action.error, isBusy: false }
    case 'back':
      return state.step === 'contact'
        ? state
        : { step: 'contact', input: state.contact, error: null, isBusy: false }
    default: {
      const unknownAction: never = action
      return unknownAction
    }
  }
}

/** The texts of each channel's dialog. */
export const channelTexts = {
  email: {
    noun: 'email',
    add: 'Add email',
    change: 'Change email',
    field: 'New email address',
    addField: 'Email address',
    placeholder: 'name@example.com',
    intro: 'We will send a 6-digit code to the new address to check that it is yours.',
    checkTitle: 'Check your email',
    same: 'This is already your sign-in email.',
    useOther: 'Use a different email',
    changed: 'Email changed',
    added: 'Email added',
  },
  sms: {
    noun: 'phone number',
    add: 'Add phone number',
    change: 'Change phone number',
    field: 'New phone number',
    addField: 'Phone number',
    placeholder: '+1 415 555 0100',
    intro: 'We will text a 6-digit code to the new number to check that it is yours.',
    checkTitle: 'Check your phone',
    same: 'This is already your sign-in phone number.',
    useOther: 'Use a different number',
    changed: 'Phone number changed',
    added: 'Phone number added',
  },
} as const satisfies Record<ContactChannel, Record<string, string>>
