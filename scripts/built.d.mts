// Types for the plain-JavaScript build checks (built.mjs), for the TypeScript that calls them.
export function ensureBrowserBuilt(): void
export function ensureServerBuilt(): Promise<void>
export function runCompiled(name: string): Promise<void>
