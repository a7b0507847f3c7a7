// The server's smart-accounts section of the environment (docs/decisions/0023): the ERC-4337
// bundlers, the smart-account contracts per chain, and the paymaster's key and policies.

import {
  type EnvProblem,
  hexPrivateKeySchema,
  hostModeShape,
  isHttpUrl,
  readChainSettings,
  reportEnvProblems,
} from '@quicklinks/runtime/env/setting-schemas'
import { z } from 'zod'
import { devnetDeploymentFileSchema } from './routing-env.ts'
import {
  devnetSponsorPolicy,
  devnetSponsorPolicyId,
  hexAddressPattern,
  type SponsorPolicyConfig,
  sponsorPoliciesSchema,
} from './sponsor-policy-settings.ts'

/** The per-chain address variables of the smart-account contracts, by the field they fill. */
const smartAccountContractVariables = [
  ['SMART_ACCOUNT_FACTORY', 'accountFactory'],
  ['MULTI_OWNER_ACCOUNT_FACTORY', 'multiOwnerAccountFactory'],
  ['SIMPLE_7702_ACCOUNT', 'simple7702Account'],
  ['PAYMASTER_ADDRESS', 'paymaster'],
] as const

/** A chain's smart-account contract addresses from the environment (each optional). */
export type SmartAccountContractOverrides = Partial<
  Record<(typeof smartAccountContractVariables)[number][1], `0x${string}`>
>

/** The smart-accounts variables, then what each becomes in `SmartAccountsEnvConfig`. */
export const smartAccountsEnvSchema = z
  .looseObject({
    ...hostModeShape,
    DEVNET_DEPLOYMENT_FILE: devnetDeploymentFileSchema,
    PAYMASTER_SIGNER_KEY: hexPrivateKeySchema.optional(),
    SPONSOR_POLICIES: sponsorPoliciesSchema,
    SPONSOR_DEFAULT_POLICY: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be the id of a policy in SPONSOR_POLICIES')
      .optional(),
  })
  .transform((env, context) => {
    const problems: EnvProblem[] = []
    const bundlerUrls = readChainSettings(
      env,
      'BUNDLER_URL',
      { isValid: isHttpUrl, message: 'must be an http(s) URL' },
      problems,
    )
    const smartAccountContracts: Record<number, SmartAccountContractOverrides> = {}
    for (const [prefix, field] of smartAccountContractVariables) {
      const addresses = readChainSettings(
        env,
        prefix,
        { isValid: (value) => hexAddressPattern.test(value), message: 'must be a 20-byte hex address' },
        problems,
      )
      for (const [chainId, address] of Object.entries(addresses)) {
        const id = Number(chainId)
        smartAccountContracts[id] = { ...smartAccountContracts[id], [field]: address as `0x${string}` }
      }
    }
    if (env.PRODUCTION)
      problems.push(...findMissingProductionSettings(env, bundlerUrls, smartAccountContracts))
    // The dev default stands in only when no policy is configured.
    const isDevDefault = env.SPONSOR_POLICIES.length === 0 && env.DEV_MODE
    const sponsorPolicies: readonly SponsorPolicyConfig[] = isDevDefault
      ? [devnetSponsorPolicy]
      : env.SPONSOR_POLICIES
    const sponsorDefaultPolicyId =
      env.SPONSOR_DEFAULT_POLICY ?? (isDevDefault ? devnetSponsorPolicyId : (sponsorPolicies[0]?.id ?? null))
    if (
      sponsorDefaultPolicyId !== null &&
      !sponsorPolicies.some((policy) => policy.id === sponsorDefaultPolicyId)
    ) {
      problems.push([
        'SPONSOR_DEFAULT_POLICY',
        `${JSON.stringify(sponsorDefaultPolicyId)} is not the id of a policy in SPONSOR_POLICIES`,
      ])
    }
    if (problems.length > 0) return reportEnvProblems(context, problems)
    return {
      /**
       * ERC-4337 bundler JSON-RPC per chain id, from BUNDLER_URL_<chainId> (production, and what
       * `npm start` passes for the devnet); else the devnet deployment's `bundlerUrl`. Only the
       * server calls it (POST /api/bundler/{chainId} relays to it).
       */
      bundlerUrls,
      /**
       * Per chain id, where the smart-account contracts sit when not where the devnet deployment says:
       * SMART_ACCOUNT_FACTORY_<chainId>, MULTI_OWNER_ACCOUNT_FACTORY_<chainId>,
       * SIMPLE_7702_ACCOUNT_<chainId> and PAYMASTER_ADDRESS_<chainId>.
       */
      smartAccountContracts,
      /**
       * The key that signs SponsorPaymaster data (PAYMASTER_SIGNER_KEY). In dev mode without it, the
       * devnet's paymaster signer (test mnemonic index 12); otherwise nothing is sponsored.
       */
      paymasterSignerKey: env.PAYMASTER_SIGNER_KEY,
      /** The paymaster's policies (SPONSOR_POLICIES); in dev mode without it, `devnetSponsorPolicy`. */
      sponsorPolicies,
      /** The policy the web app asks for (SPONSOR_DEFAULT_POLICY; dev mode: devnet-wallet), or null. */
      sponsorDefaultPolicyId,
    }
  })

/** The server's smart-account settings, from its smart-accounts section of the environment. */
export type SmartAccountsEnvConfig = z.output<typeof smartAccountsEnvSchema>

/**
 * PRODUCTION=true: sponsoring needs the key the SponsorPaymaster trusts, and with no devnet
 * deployment to take the contracts from, each chain with a bundler names its own.
 */
function findMissingProductionSettings(
  env: {
    DEVNET_DEPLOYMENT_FILE?: string | undefined
    PAYMASTER_SIGNER_KEY?: string | undefined
    SPONSOR_POLICIES: readonly unknown[]
  },
  bundlerUrls: Record<number, string>,
  contracts: Record<number, SmartAccountContractOverrides>,
): EnvProblem[] {
  const problems: EnvProblem[] = []
  const hasPolicies = env.SPONSOR_POLICIES.length > 0
  if (hasPolicies && env.PAYMASTER_SIGNER_KEY === undefined) {
    problems.push([
      'PAYMASTER_SIGNER_KEY',
      'required in production when SPONSOR_POLICIES is set (the key your SponsorPaymaster trusts to sign sponsored operations)',
    ])
  }
  if (env.DEVNET_DEPLOYMENT_FILE !== undefined) return problems
  for (const chainId of Object.keys(bundlerUrls).map(Number)) {
    const missing = smartAccountContractVariables
      .filter(([prefix, field]) => prefix !== 'PAYMASTER_ADDRESS' && !contracts[chainId]?.[field])
      .map(([prefix]) => `${prefix}_${chainId}`)
    if (hasPolicies && !contracts[chainId]?.paymaster) missing.push(`PAYMASTER_ADDRESS_${chainId}`)
    if (missing.length > 0) {
      problems.push([
        `BUNDLER_URL_${chainId}`,
        `smart accounts on chain ${chainId} also need ${missing.join(', ')} (the deployed contracts' addresses)`,
      ])
    }
  }
  return problems
}
