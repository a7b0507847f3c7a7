// The building blocks every section of the environment uses (the host's in packages/runtime, the
// signer's and the server's in their apps): one spelling of a boolean, of a list setting's JSON and
// of a per-chain variable, so a setting reads and fails alike wherever it lives.

import { z } from 'zod'

/** `true` or `false`, nothing else (a typo must not quietly mean "off"). */
export const booleanSchema = z
  .enum(['true', 'false'], { error: "must be 'true' or 'false'" })
  .transform((value) => value === 'true')

/**
 * The host's mode flags, which sections of other apps read too (their checks differ in dev mode
 * and in production): spread into a section's shape so each flag is defined and parsed alike.
 */
export const hostModeShape = {
  DEV_MODE: booleanSchema.default(false),
  PRODUCTION: booleanSchema.default(false),
}

/** The id of an entry of a list setting (a policy, a provider). */
export const settingIdSchema = z
  .string({ error: 'must be a string' })
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, hyphens or underscores')

/**
 * A list setting's check that no two entries share a value of any of `keys` (the path names the
 * later entry): `[1].id: id is given twice`.
 */
export function refineUniqueKeys<Key extends string>(...keys: Key[]) {
  return (entries: readonly Record<Key, string>[], context: z.RefinementCtx): void => {
    for (const key of keys) {
      const seen = new Set<string>()
      entries.forEach((entry, index) => {
        if (seen.has(entry[key]))
          context.addIssue({ code: 'custom', path: [index, key], message: `${key} is given twice` })
        seen.add(entry[key])
      })
    }
  }
}

/**
 * A setting holding a JSON array, checked by `listSchema`; unset is an empty list. Not JSON says so
 * with the expected `shape`; every other problem is named with its entry, e.g. `[0].jwksUrl: …`.
 */
export function jsonListSetting<Entry>(shape: string, listSchema: z.ZodType<Entry[]>) {
  return z
    .string()
    .optional()
    .transform((value, context): Entry[] => {
      if (value === undefined) return []
      let json: unknown
      try {
        json = JSON.parse(value)
      } catch (error) {
        context.addIssue({
          code: 'custom',
          message: `must be ${shape}, but it is not JSON (${(error as Error).message})`,
        })
        return z.NEVER
      }
      const parsed = listSchema.safeParse(json)
      if (parsed.success) return parsed.data
      for (const issue of parsed.error.issues) {
        const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
        const where = path.join('').replace(/^\./, '')
        context.addIssue({ code: 'custom', message: where ? `${where}: ${issue.message}` : issue.message })
      }
      return z.NEVER
    })
}

/** A problem with one variable, found after each variable parsed: `[name, what is wrong]`. */
export type EnvProblem = readonly [variable: string, message: string]

/**
 * Reports `problems` as issues of the section being parsed (each named by its variable, so the
 * message reads `  NAME: what is wrong` like a variable that failed its own schema); returns
 * `z.NEVER`, what a section's transform returns when it cannot build its config.
 */
export function reportEnvProblems(context: z.RefinementCtx, problems: readonly EnvProblem[]): never {
  for (const [variable, message] of problems) context.addIssue({ code: 'custom', path: [variable], message })
  return z.NEVER
}

/**
 * The `<prefix>_<chainId>` variables of `env` (RPC_URL_8453, …), by chain id; an empty value is
 * unset. A value `isValid` refuses is a problem `  <prefix>_<chainId>: <message>`.
 */
export function readChainSettings(
  env: Readonly<Record<string, unknown>>,
  prefix: string,
  check: { isValid(value: string): boolean; message: string },
  problems: EnvProblem[],
): Record<number, string> {
  const values: Record<number, string> = {}
  const pattern = new RegExp(`^${prefix}_(\\d+)$`)
  for (const [name, value] of Object.entries(env)) {
    const match = pattern.exec(name)
    if (!match?.[1] || typeof value !== 'string' || value === '') continue
    if (check.isValid(value)) values[Number(match[1])] = value
    else problems.push([name, check.message])
  }
  return values
}

/** An http(s) URL with no whitespace, as the per-chain URL variables want. */
export const isHttpUrl = (value: string): boolean => /^https?:\/\/\S+$/.test(value)

/** A 32-byte private key in hex (RELAYER_PRIVATE_KEY, PAYMASTER_SIGNER_KEY). */
export const hexPrivateKeySchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 32-byte hex private key (0x + 64 hex digits)')
  .transform((value) => value as `0x${string}`)
