// SPONSOR_POLICIES: the paymaster's gas sponsorship policies (docs/api.md#paymaster), a JSON list
// checked entry by entry, and the dev-mode policy used without it.

import { jsonListSetting, refineUniqueKeys, settingIdSchema } from '@quicklinks/runtime/env/setting-schemas'
import { z } from 'zod'

const sponsorPoliciesShape =
  'a JSON array of {id, chainIds?, accounts: "embedded", tokens?, contracts?, dailyGasCapWei, globalDailyGasCapWei}'

export const hexAddressPattern = /^0x[0-9a-fA-F]{40}$/

const weiAmountSchema = z
  .string({ error: 'must be a whole number of wei, as a string' })
  .regex(/^\d{1,40}$/, 'must be a whole number of wei, as a string')
  .transform((value) => BigInt(value))

/** One gas sponsorship policy of the paymaster service (an entry of SPONSOR_POLICIES). */
const sponsorPolicySchema = z
  .object({
    /** What a client names in the paymaster context (`{ policyId }`). */
    id: settingIdSchema,
    /** The chains it sponsors on; absent: every chain with a bundler and a paymaster. */
    chainIds: z
      .array(z.number().int().positive(), { error: 'must be an array of chain ids' })
      .min(1)
      .readonly()
      .optional(),
    /**
     * Whose operations: 'embedded', the signed-in user's own accounts (smart, multi-owner or
     * EIP-7702) when the user is an embedded wallet of the signer (or signed in as that wallet's
     * smart account).
     */
    accounts: z.literal('embedded', { error: 'must be "embedded" (the signed-in user\'s own accounts)' }),
    /** ERC-20 tokens (symbols of the chain's catalogue, or addresses) whose transfer and approve it pays for. */
    tokens: z
      .array(
        z
          .string()
          .regex(
            /^(0x[0-9a-fA-F]{40}|[A-Za-z0-9.]{1,16})$/,
            'must be a token symbol (e.g. USDC) or a 20-byte hex address',
          ),
      )
      .readonly()
      .default([]),
    /** Contracts any call to which it pays for. */
    contracts: z
      .array(z.string().regex(hexAddressPattern, 'must be a 20-byte hex address'))
      .readonly()
      .default([]),
    /** Wei of gas (the operations' maximum cost) one user may be granted per UTC day under it. */
    dailyGasCapWei: weiAmountSchema,
    /** Wei of gas all users together may be granted per UTC day under it (at least `dailyGasCapWei`). */
    globalDailyGasCapWei: weiAmountSchema,
  })
  .strict()
  .refine((policy) => policy.globalDailyGasCapWei >= policy.dailyGasCapWei, {
    error: 'globalDailyGasCapWei (all users together) must be at least dailyGasCapWei (one user)',
    path: ['globalDailyGasCapWei'],
  })

/** One gas sponsorship policy (docs/api.md#paymaster): an entry of SPONSOR_POLICIES, or the dev-mode one. */
export type SponsorPolicyConfig = z.output<typeof sponsorPolicySchema> & {
  /** Contracts of the devnet deployment named by role (the dev default's PayRouter); never from the environment. */
  devnetContracts?: readonly 'payRouter'[]
}

/** SPONSOR_POLICIES: the paymaster's policies. Unset: none (dev mode: `devnetSponsorPolicy`). */
export const sponsorPoliciesSchema = jsonListSetting(
  sponsorPoliciesShape,
  z
    .array(sponsorPolicySchema, { error: `must be ${sponsorPoliciesShape}` })
    .superRefine(refineUniqueKeys('id')),
)

/** The id of the dev-mode policy (SPONSOR_DEFAULT_POLICY's dev default). */
export const devnetSponsorPolicyId = 'devnet-wallet'

/**
 * Dev mode without SPONSOR_POLICIES: the devnet wallet's transfers and approvals of the devnet
 * tokens and its calls to PayRouter, on every devnet chain, up to 0.05 native a user a day and 5
 * native a day for everyone (the devnet paymaster holds 1,000).
 */
export const devnetSponsorPolicy: SponsorPolicyConfig = {
  id: devnetSponsorPolicyId,
  accounts: 'embedded',
  tokens: ['USDC', 'USDT', 'WETH', 'WAVAX'],
  contracts: [],
  devnetContracts: ['payRouter'],
  dailyGasCapWei: 50_000_000_000_000_000n,
  globalDailyGasCapWei: 5_000_000_000_000_000_000n,
}
