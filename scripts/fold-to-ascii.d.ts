// fold-to-ascii ships no types: its CommonJS export is a class whose static `mapping` is Lucene's
// ASCII folding table, UTF-16 unit to replacement.
declare module 'fold-to-ascii' {
  const ASCIIFolder: { readonly mapping: ReadonlyMap<number, string> }
  export default ASCIIFolder
}
