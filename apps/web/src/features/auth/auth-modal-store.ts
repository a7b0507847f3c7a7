import { create } from 'zustand'

type AuthModalState = {
  isOpen: boolean
  /** True once opened: the modal's code stays mounted after that (closing animates out). */
  hasOpened: boolean
  /**
   * 'navigate' (default): after sign-in go to /onboarding or /dashboard. 'stay': the wallet
   * session ended while the app session lives on; sign in again and stay on this screen.
   */
  purpose: 'navigate' | 'stay'
  open: (purpose?: 'navigate' | 'stay') => void
  close: () => void
}

/** Whether the auth modal is open (the header's Sign in, the landing CTA, a re-sign-in). */
export const useAuthModalStore = create<AuthModalState>()((set) => ({
  isOpen: false,
  hasOpened: false,
  purpose: 'navigate',
  open: (purpose = 'navigate') => set({ isOpen: true, hasOpened: true, purpose }),
  close: () => set({ isOpen: false }),
}))
