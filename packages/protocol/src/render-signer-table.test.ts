import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  describeSchemaFields,
  renderSignerTables,
  replaceSignerTableSection,
  signerTableMarkers,
} from './render-signer-table.ts'
import { signerActivities } from './signer-activities.ts'
import { signerRoutes } from './signer-routes.ts'

const documentPath = join(import.meta.dirname, '..', '..', '..', 'docs', 'signer.md')

function readGeneratedSection(): string {
  const document = readFileSync(documentPath, 'utf8')
  const begin = document.indexOf(signerTableMarkers.begin)
  const end = document.indexOf(signerTableMarkers.end)
  expect(begin).toBeGreaterThan(-1)
  expect(end).toBeGreaterThan(begin)
  return document.slice(begin, end + signerTableMarkers.end.length)
}

describe('docs/signer.md#signer-calls', () => {
  it('shows the signer-call table as it is in the code (run `npx tsx scripts/render-signer-table.ts` when this fails)', () => {
    expect(readGeneratedSection()).toBe(renderSignerTables())
  })

  it('names each stamped call with its path, type, builder, step-up and parameter fields', () => {
    const rows = readGeneratedSection().split('\n')
    for (const [name, call] of Object.entries(signerActivities)) {
      const row = rows.find((line) => line.startsWith(`| ${name} |`))
      expect(row, name).toBeDefined()
      const cells = (row ?? '').split(' | ')
      expect(cells.slice(1, 5)).toEqual([`\`${call.path}\``, `\`${call.type}\``, call.builder, call.stepUp])
      const parameterNames = Object.keys((call.parameters._zod.def as { shape: object }).shape)
      for (const parameter of parameterNames) expect(cells[5], `${name}.${parameter}`).toContain(parameter)
    }
  })

  it('names each unstamped call with its path', () => {
    const section = readGeneratedSection()
    for (const [name, route] of Object.entries(signerRoutes)) {
      expect(section).toContain(`| ${name} | \`${route.path}\` |`)
    }
  })
})

describe('describeSchemaFields', () => {
  it('lists an object’s fields, optional ones with ?, and a kept rest as …', () => {
    expect(describeSchemaFields(signerActivities.updateEmail.parameters)).toBe(
      '`email`, `verificationToken`, `previousContactVerificationToken?`',
    )
    expect(describeSchemaFields(signerActivities.listAuthMethods.parameters)).toBe('`suborgId?`, `…`')
    expect(describeSchemaFields(signerRoutes.otp.answer)).toContain(' \\| ')
  })

  it('refuses a document without the markers instead of losing the section', () => {
    expect(() => replaceSignerTableSection('# no markers', renderSignerTables())).toThrow(/markers/)
  })
})
