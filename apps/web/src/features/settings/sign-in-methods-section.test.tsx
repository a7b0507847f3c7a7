import { AppError } from '@quicklinks/core/app-error'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { AppProviders } from '../../app/providers'
import { createQueryClient } from '../../app/query-client'
import { dismissToast } from '../../ui/use-toast'
import { useAuthModalStore } from '../auth/auth-modal-store'
import type { ContactChannel, WalletAuthMethods } from '../auth/wallet-session'
import { SignInMethodsSection } from './sign-in-methods-section'

// The wallet's door (wallet-session.ts) stands in for the signer and the frames here; the whole
// path through them runs in e2e/specs/settings-contacts.spec.ts.
const wallet = vi.hoisted(() => ({
  status: 'CONNECTED' as string,
  methods: {
    email: 'ada@example.com' as string | null,
    phone: null as string | null,
    passkeys: [],
    oauthProviders: [],
  },
  listWalletAuthMethods: vi.fn<() => Promise<WalletAuthMethods>>(),
  removeContact: vi.fn<(channel: ContactChannel, verificationToken: string) => Promise<void>>(),
  sendContactCode: vi.fn<(channel: ContactChannel, contact: string) => Promise<string>>(),
  verifyContactCode: vi.fn<(otpId: string, code: string) => Promise<string>>(),
  changeContact:
    vi.fn<
      (input: {
        channel: ContactChannel
        contact: string
        verificationToken: string
        previousContactVerificationToken?: string
      }) => Promise<void>
    >(),
}))
vi.mock('../auth/wallet-session', () => ({
  useWalletStatus: () => wallet.status,
  listWalletAuthMethods: wallet.listWalletAuthMethods,
  sendContactCode: wallet.sendContactCode,
  verifyContactCode: wallet.verifyContactCode,
  changeContact: wallet.changeContact,
  removeContact: wallet.removeContact,
}))

const wrongCode = new AppError('OTP_INVALID', {
  userMessage: 'That code is not right. You have 2 tries left.',
})

beforeEach(() => {
  wallet.status = 'CONNECTED'
  wallet.methods.email = 'ada@example.com'
  wallet.methods.phone = null
  wallet.listWalletAuthMethods.mockReset().mockImplementation(async () => ({ ...wallet.methods }))
  wallet.sendContactCode.mockReset().mockImplementation(async (_channel, contact) => `otp-for-${contact}`)
  wallet.verifyContactCode.mockReset().mockImplementation(async (otpId, code) => {
    if (code !== '123456') throw wrongCode
    return `token-of-${otpId}`
  })
  wallet.changeContact.mockReset().mockImplementation(async (input) => {
    if (input.channel === 'email') wallet.methods.email = input.contact
    else wallet.methods.phone = input.contact
  })
  wallet.removeContact.mockReset().mockImplementation(async (channel) => {
    if (channel === 'email') wallet.methods.email = null
    else wallet.methods.phone = null
  })
  useAuthModalStore.setState({ isOpen: false, purpose: 'navigate' })
  dismissToast()
})

function renderSection() {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <SignInMethodsSection />
    </AppProviders>,
  )
}

function enterCode(code: string) {
  fireEvent.change(screen.getByLabelText('Code'), { target: { value: code } })
}

describe('sign-in methods section', () => {
  it('shows the e-mail with Change and a missing phone with Add', async () => {
    renderSection()
    const section = screen.getByRole('region', { name: 'Sign-in methods' })
    expect(await within(section).findByText('ada@example.com')).toBeTruthy()
    expect(within(section).getByText('Not set')).toBeTruthy()
    expect(within(section).getByRole('button', { name: 'Change email' }).textContent).toBe('Change')
    expect(within(section).getByRole('button', { name: 'Add phone number' }).textContent).toBe('Add')
  })

  it('changes the e-mail with a code to the new address, then one to the current address', async () => {
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Change email' }))
    const dialog = await screen.findByRole('dialog', { name: 'Change email' })
    const field = within(dialog).getByLabelText('New email address')
    expect(document.activeElement).toBe(field)

    fireEvent.change(field, { target: { value: 'not an address' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Enter a valid email address, like name@example.com.',
    )
    expect(field.getAttribute('aria-invalid')).toBe('true')
    fireEvent.change(field, { target: { value: 'ADA@example.com ' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This is already your sign-in email.')
    expect(wallet.sendContactCode).not.toHaveBeenCalled()

    fireEvent.change(field, { target: { value: ' ada.new@example.com ' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }))
    await screen.findByRole('dialog', { name: 'Check your email' })
    expect(wallet.sendContactCode).toHaveBeenLastCalledWith('email', 'ada.new@example.com')
    expect(screen.getByText('ada.new@example.com')).toBeTruthy()

    enterCode('000000')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That code is not right. You have 2 tries left.',
    )
    expect(wallet.changeContact).not.toHaveBeenCalled()
    enterCode('123456')

    await screen.findByRole('dialog', { name: 'Confirm it’s you' })
    expect(wallet.sendContactCode).toHaveBeenLastCalledWith('email', 'ada@example.com')
    expect(wallet.changeContact).not.toHaveBeenCalled()
    enterCode('123456')

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(wallet.changeContact).toHaveBeenCalledWith({
      channel: 'email',
      contact: 'ada.new@example.com',
      verificationToken: 'token-of-otp-for-ada.new@example.com',
      previousContactVerificationToken: 'token-of-otp-for-ada@example.com',
    })
    expect(await screen.findByText('Email changed')).toBeTruthy()
    expect(
      screen.getByText('You now sign in with ada.new@example.com. Your other devices were signed out.'),
    ).toBeTruthy()
    // The shared query was refetched: the section shows the account as it is now.
    const section = screen.getByRole('region', { name: 'Sign-in methods' })
    expect(await within(section).findByText('ada.new@example.com')).toBeTruthy()
  })

  it('adds a first phone with the new number’s code and one to the e-mail (the step-up), normalised to E.164', async () => {
    renderSection()
    await screen.findByText('ada@example.com')
    fireEvent.click(await screen.findByRole('button', { name: 'Add phone number' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add phone number' })
    fireEvent.change(within(dialog).getByLabelText('Phone number'), { target: { value: '+44 20 7946 0018' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }))
    await screen.findByRole('dialog', { name: 'Check your phone' })
    expect(wallet.sendContactCode).toHaveBeenCalledWith('sms', '+442079460018')
    enterCode('123456')
    // A first phone is a new way in: the account's e-mail confirms it.
    await screen.findByRole('dialog', { name: 'Confirm it’s you' })
    expect(wallet.sendContactCode).toHaveBeenLastCalledWith('email', 'ada@example.com')
    expect(wallet.changeContact).not.toHaveBeenCalled()
    enterCode('123456')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(wallet.changeContact).toHaveBeenCalledWith({
      channel: 'sms',
      contact: '+442079460018',
      verificationToken: 'token-of-otp-for-+442079460018',
      previousContactVerificationToken: 'token-of-otp-for-ada@example.com',
    })
    expect(await screen.findByText('Phone number added')).toBeTruthy()
    expect(await screen.findByRole('button', { name: 'Change phone number' })).toBeTruthy()
  }, 15_000)

  it('shows a refusal of the change (an address of another account) beside the address, to start again', async () => {
    wallet.changeContact.mockRejectedValueOnce(
      new AppError('CONFLICT', { userMessage: 'That e-mail address belongs to another account.' }),
    )
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Change email' }))
    fireEvent.change(await screen.findByLabelText('New email address'), {
      target: { value: 'taken@example.com' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await screen.findByRole('dialog', { name: 'Check your email' })
    enterCode('123456')
    await screen.findByRole('dialog', { name: 'Confirm it’s you' })
    enterCode('123456')

    const dialog = await screen.findByRole('dialog', { name: 'Change email' })
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'That e-mail address belongs to another account.',
    )
    expect(within(dialog).getByLabelText<HTMLInputElement>('New email address').value).toBe(
      'taken@example.com',
    )
    expect(screen.queryByText('Email changed')).toBeNull()
  })

  it('shows a locked code and a failed send where they happened', async () => {
    wallet.sendContactCode.mockRejectedValueOnce(
      new AppError('RATE_LIMITED', {
        userMessage: 'Too many codes were sent. Wait 3 minutes and try again.',
      }),
    )
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Change email' }))
    fireEvent.change(await screen.findByLabelText('New email address'), {
      target: { value: 'new@example.com' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many codes were sent. Wait 3 minutes and try again.',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await screen.findByRole('dialog', { name: 'Check your email' })
    wallet.verifyContactCode.mockRejectedValueOnce(
      new AppError('OTP_INVALID', {
        userMessage: 'This code is locked after too many tries. Request a new code.',
      }),
    )
    enterCode('123456')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This code is locked after too many tries. Request a new code.',
    )
    // Back to the address keeps what was typed.
    fireEvent.click(screen.getByRole('button', { name: 'Use a different email' }))
    expect((await screen.findByLabelText<HTMLInputElement>('New email address')).value).toBe(
      'new@example.com',
    )
  })

  it('offers Remove only beside another way in, and removes the phone with a code sent to it', async () => {
    renderSection()
    await screen.findByText('ada@example.com')
    expect(screen.queryByRole('button', { name: 'Remove email' })).toBeNull()

    wallet.methods.phone = '+442079460018'
    cleanup()
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Remove phone number' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove phone number' })
    expect(dialog.textContent).toContain('+442079460018')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code to remove' }))
    await screen.findByRole('dialog', { name: 'Check your phone' })
    expect(wallet.sendContactCode).toHaveBeenCalledWith('sms', '+442079460018')
    enterCode('123456')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(wallet.removeContact).toHaveBeenCalledWith('sms', {
      verificationToken: 'token-of-otp-for-+442079460018',
    })
    expect(await screen.findByText('Phone number removed')).toBeTruthy()
    expect(await screen.findByRole('button', { name: 'Add phone number' })).toBeTruthy()
  })

  it('shows the signer’s refusal to remove the last way in', async () => {
    wallet.methods.phone = '+442079460018'
    wallet.removeContact.mockRejectedValueOnce(
      new AppError('CONFLICT', {
        userMessage: 'This is your only way to sign in. Add another one before you remove it.',
      }),
    )
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Remove email' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Send code to remove' }))
    await screen.findByRole('dialog', { name: 'Check your email' })
    enterCode('123456')
    const dialog = await screen.findByRole('dialog', { name: 'Remove email' })
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This is your only way to sign in. Add another one before you remove it.',
    )
    expect(screen.queryByText('Email removed')).toBeNull()
  })

  it('offers to sign in again when the wallet session has ended', async () => {
    wallet.status = 'DISCONNECTED'
    renderSection()
    expect(
      screen.getByText('Your wallet session has ended. Sign in again to manage how you sign in.'),
    ).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Change email' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Sign in again' }))
    expect(useAuthModalStore.getState()).toMatchObject({ isOpen: true, purpose: 'stay' })
    expect(wallet.listWalletAuthMethods).not.toHaveBeenCalled()
  })
})
