import type { z } from 'zod'

/** A section of the environment: a zod schema over the variables, whose output is that part of the config. */
export type EnvSection = z.ZodType<object, Record<string, unknown>>

/** What `parseEnvSections` answers: each section's config under its name. */
export type ParsedEnvSections<Sections extends Record<string, EnvSection>> = {
  [Name in keyof Sections]: z.output<Sections[Name]>
}

/**
 * Parses `source` with each of `sections` (the host's and the app's own; docs/decisions/0023),
 * treating an empty variable (`FOO=`) as unset, as most shells and .env loaders intend.
 * Throws one Error naming every invalid variable of every section, one per line
 * (`Invalid environment:\n  PORT: …`), a variable two sections read named once; the entry
 * points print it and exit.
 */
export function parseEnvSections<Sections extends Record<string, EnvSection>>(
  source: Record<string, string | undefined>,
  sections: Sections,
): ParsedEnvSections<Sections> {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''))
  const lines: string[] = []
  const parsed: Record<string, object> = {}
  for (const [name, schema] of Object.entries(sections)) {
    const result = schema.safeParse(present)
    if (result.success) parsed[name] = result.data
    else lines.push(...result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`))
  }
  if (lines.length > 0) throw new Error(`Invalid environment:\n${[...new Set(lines)].join('\n')}`)
  return parsed as ParsedEnvSections<Sections>
}
