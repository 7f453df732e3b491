/**
 * `npm run latin-folds` writes src/domain/rules/latin-folds.ts: the Latin letters that Unicode's
 * decompositions leave whole (ø, ł, đ, æ, œ, þ, …) with the plain letters search folds them to,
 * taken from Lucene's ASCII folding table (the fold-to-ascii package), which search engines use
 * for the same purpose. Only letters that the search fold leaves non-ASCII are written, so the
 * browser carries about a kilobyte, not the whole table. A domain test checks the file against
 * the table.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { format, resolveConfig } from 'prettier'
import { latinFoldsFromLucene, renderLatinFolds } from './latin-folds.table'

const target = fileURLToPath(new URL('../src/domain/rules/latin-folds.ts', import.meta.url))
const source = renderLatinFolds(latinFoldsFromLucene())
const options = await resolveConfig(target)
writeFileSync(target, await format(source, { ...options, filepath: target }))
console.log('wrote src/domain/rules/latin-folds.ts')
