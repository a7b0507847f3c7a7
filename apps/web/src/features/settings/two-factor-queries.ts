/** Query keys of the account's authenticator apps (Settings → Two-step verification). */
export const twoFactorKeys = {
  all: ['two-factor-apps'] as const,
  list: () => ['two-factor-apps', 'list'] as const,
}
