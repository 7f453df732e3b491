/** The part of jsdom the tests use (jsdom ships no types of its own): its HTML parser. */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html: string)
    readonly window: { readonly document: Document }
  }
}
