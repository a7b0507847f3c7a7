// The server's Solana section of the environment (docs/decisions/0023): the JSON-RPC node POST
// /api/solana relays to, and the fee sponsor's key and policies (docs/api.md#solana).

import {
  type EnvProblem,
  hostModeShape,
  jsonListSetting,
  refineUniqueKeys,
  reportEnvProblems,
  settingIdSchema,
} from '@quicklinks/runtime/env/setting-schemas'
import { z } from 'zod'

const solanaSponsorPoliciesShape =
  'a JSON array of {id, programs: [base58 program ids], maxFeeLamports, dailyFeeCapLamports, globalDailyFeeCapLamports}'

const base58Alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

const lamportsSchema = z
  .union(
    [
      z.string().regex(/^\d{1,20}$/, 'must be a whole number of lamports'),
      z
        .number()
        .int('must be a whole number of lamports')
        .min(0, 'must be a whole number of lamports')
        .max(Number.MAX_SAFE_INTEGER, 'must be a whole number of lamports'),
    ],
    { error: 'must be a whole number of lamports' },
  )
  .transform((value) => BigInt(value))

/**
 * One Solana fee sponsorship policy (an entry of SOLANA_SPONSOR_POLICIES): the sponsor pays a
 * transaction's fee when the user's own Solana account signs it, every instruction calls a listed
 * program, the fee stays within `maxFeeLamports`, the user's fees today under it stay within
 * `dailyFeeCapLamports` and every user's together within `globalDailyFeeCapLamports`.
 */
const solanaSponsorPolicySchema = z
  .object({
    /** What a client names in the fee-payer request (`policyId`). */
    id: settingIdSchema,
    /** Base58 program ids every instruction's program must be one of. */
    programs: z
      .array(z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 program id'), {
        error: 'must be an array of base58 program ids',
      })
      .min(1)
      .readonly(),
    /** Lamports one transaction's fee (signatures plus priority fee) may reach. */
    maxFeeLamports: lamportsSchema,
    /** Lamports of fees one user may be granted per UTC day under it. */
    dailyFeeCapLamports: lamportsSchema,
    /**
     * Lamports of fees all users together may be granted per UTC day under it: what bounds the
     * sponsor's loss when many accounts (each with its own daily cap) farm it.
     */
    globalDailyFeeCapLamports: lamportsSchema,
  })
  .strict()

/** One Solana fee sponsorship policy (docs/api.md#solana). */
export type SolanaSponsorPolicyConfig = z.output<typeof solanaSponsorPolicySchema>

/** The id of the dev-mode Solana policy (SOLANA_SPONSOR_DEFAULT_POLICY's dev default). */
export const devnetSolanaSponsorPolicyId = 'devnet-solana'

/**
 * Dev mode without SOLANA_SPONSOR_POLICIES: transfers of SOL and SPL tokens (System, Token,
 * Token-2022, Associated Token and Compute Budget programs), at most 50,000 lamports of fee a
 * transaction, 0.01 SOL of fees a user a day and 1 SOL for all users together.
 */
export const devnetSolanaSponsorPolicy: SolanaSponsorPolicyConfig = {
  id: devnetSolanaSponsorPolicyId,
  programs: [
    '11111111111111111111111111111111',
    'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
    'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
    'ComputeBudget111111111111111111111111111111',
  ],
  maxFeeLamports: 50_000n,
  dailyFeeCapLamports: 10_000_000n,
  globalDailyFeeCapLamports: 1_000_000_000n,
}

/** The byte length of a base58 string, for checking SOLANA_SPONSOR_KEY's; undefined when it is not base58. */
function decodeBase58Length(value: string): number | undefined {
  let number = 0n
  for (const character of value) {
    const digit = base58Alphabet.indexOf(character)
    if (digit < 0) return undefined
    number = number * 58n + BigInt(digit)
  }
  const leadingZeros = value.length - value.replace(/^1+/, '').length
  return leadingZeros + (number === 0n ? 0 : Math.ceil(number.toString(16).length / 2))
}

/** The Solana variables, then what each becomes in `SolanaEnvConfig`. */
export const solanaEnvSchema = z
  .object({
    ...hostModeShape,
    SOLANA_RPC_URL: z
      .string()
      .regex(/^https?:\/\/\S+$/, 'must be the http(s) URL of a Solana JSON-RPC node')
      .optional(),
    SOLANA_SPONSOR_KEY: z
      .string()
      .refine(
        (value) => decodeBase58Length(value) === 64,
        'must be a 64-byte Solana secret key in base58 (the secret seed then the public key, as `solana-keygen` and wallets export it)',
      )
      .optional(),
    SOLANA_SPONSOR_POLICIES: jsonListSetting(
      solanaSponsorPoliciesShape,
      z
        .array(solanaSponsorPolicySchema, { error: `must be ${solanaSponsorPoliciesShape}` })
        .superRefine(refineUniqueKeys('id')),
    ),
    SOLANA_SPONSOR_DEFAULT_POLICY: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be the id of a policy in SOLANA_SPONSOR_POLICIES')
      .optional(),
  })
  .transform((env, context) => {
    const problems: EnvProblem[] = []
    const hasPolicies = env.SOLANA_SPONSOR_POLICIES.length > 0
    if (env.PRODUCTION && hasPolicies && env.SOLANA_SPONSOR_KEY === undefined) {
      problems.push([
        'SOLANA_SPONSOR_KEY',
        'required in production when SOLANA_SPONSOR_POLICIES is set (the base58 secret key of the account that pays sponsored Solana fees)',
      ])
    }
    if (env.PRODUCTION && hasPolicies && env.SOLANA_RPC_URL === undefined) {
      problems.push([
        'SOLANA_RPC_URL',
        'required in production when SOLANA_SPONSOR_POLICIES is set (the Solana JSON-RPC node sponsored transactions go to)',
      ])
    }
    // The dev default stands in only when no policy is configured.
    const isDevDefault = !hasPolicies && env.DEV_MODE
    const policies: readonly SolanaSponsorPolicyConfig[] = isDevDefault
      ? [devnetSolanaSponsorPolicy]
      : env.SOLANA_SPONSOR_POLICIES
    const defaultPolicyId =
      env.SOLANA_SPONSOR_DEFAULT_POLICY ??
      (isDevDefault ? devnetSolanaSponsorPolicyId : (policies[0]?.id ?? null))
    if (defaultPolicyId !== null && !policies.some((policy) => policy.id === defaultPolicyId)) {
      problems.push([
        'SOLANA_SPONSOR_DEFAULT_POLICY',
        `${JSON.stringify(defaultPolicyId)} is not the id of a policy in SOLANA_SPONSOR_POLICIES`,
      ])
    }
    if (problems.length > 0) return reportEnvProblems(context, problems)
    return {
      /**
       * SOLANA_RPC_URL: the Solana JSON-RPC node POST /api/solana relays to; without it the endpoint
       * runs on the in-process LiteSVM when `solanaDevnet`.
       */
      solanaRpcUrl: env.SOLANA_RPC_URL,
      /** The in-process LiteSVM answers POST /api/solana: dev mode without SOLANA_RPC_URL (and tests). */
      solanaDevnet: env.DEV_MODE && env.SOLANA_RPC_URL === undefined,
      /**
       * SOLANA_SPONSOR_KEY: the fee sponsor's 64-byte secret key in base58. On the LiteSVM without it,
       * a key generated once into `${dataDir}/solana-sponsor.key` (mode 0600); otherwise nothing is sponsored.
       */
      solanaSponsorKey: env.SOLANA_SPONSOR_KEY,
      /** The Solana fee sponsor's policies (SOLANA_SPONSOR_POLICIES); dev mode without it: `devnetSolanaSponsorPolicy`. */
      solanaSponsorPolicies: policies,
      /** The Solana policy the web app asks for (SOLANA_SPONSOR_DEFAULT_POLICY; dev mode: devnet-solana), or null. */
      solanaSponsorDefaultPolicyId: defaultPolicyId,
    }
  })

/** The server's Solana settings, from its Solana section of the environment. */
export type SolanaEnvConfig = z.output<typeof solanaEnvSchema>
