import ASCIIFolder from 'fold-to-ascii'
import { foldCaseAndMarks } from '@/domain/rules/search-query.rules'

const LETTER = /^\p{L}$/u
const ASCII_WORD = /^[a-z0-9]+$/

/**
 * Lucene's folding of the Latin letters that case folding and dropping marks leave non-ASCII,
 * keyed by what those leave (so lower case): ø → o, æ → ae, þ → th. Letters of other scripts
 * are not in Lucene's table and stay as they are.
 */
export function latinFoldsFromLucene(): ReadonlyMap<string, string> {
  const folds = new Map<string, string>()
  for (const [unit, plain] of ASCIIFolder.mapping) {
    const letter = foldCaseAndMarks(String.fromCharCode(unit))
    if (!LETTER.test(letter) || letter.charCodeAt(0) < 128) continue
    const folded = foldCaseAndMarks(plain)
    if (!ASCII_WORD.test(folded)) continue
    const earlier = folds.get(letter)
    if (earlier !== undefined && earlier !== folded) {
      throw new Error(`Lucene folds ${letter} both to ${earlier} and to ${folded}`)
    }
    folds.set(letter, folded)
  }
  return new Map([...folds].sort(([a], [b]) => a.codePointAt(0)! - b.codePointAt(0)!))
}

/** The source of src/domain/rules/latin-folds.ts for `folds`. */
export function renderLatinFolds(folds: ReadonlyMap<string, string>): string {
  const entries = [...folds].map(([letter, plain]) => `  '${letter}': '${plain}',`).join('\n')
  return `// Written by \`npm run latin-folds\` from Lucene's ASCII folding table; do not edit.

/**
 * The Latin letters that Unicode's decompositions leave whole, with the plain letters search
 * folds them to (after case folding and dropping marks), so that 'oresund' finds Øresund.
 */
export const LATIN_FOLDS: Readonly<Record<string, string>> = {
${entries}
}
`
}
