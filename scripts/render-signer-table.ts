// npx tsx scripts/render-signer-table.ts: rewrites the generated section of docs/signer.md#signer-calls
// from the signer-call table (packages/protocol/src/signer-activities.ts, signer-routes.ts).
// packages/protocol/src/render-signer-table.test.ts fails while the section is out of date.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  renderSignerTables,
  replaceSignerTableSection,
} from '../packages/protocol/src/render-signer-table.ts'

const documentPath = join(import.meta.dirname, '..', 'docs', 'signer.md')
const document = readFileSync(documentPath, 'utf8')
const updated = replaceSignerTableSection(document, renderSignerTables())
if (updated === document) {
  console.log('docs/signer.md: the signer-call table is up to date')
} else {
  writeFileSync(documentPath, updated)
  console.log('docs/signer.md: the signer-call table was rewritten')
}
