/**
 * A value loaded on first use (typically a chunk behind a dynamic `import()`), once for the
 * calls made meanwhile. A load that fails is forgotten, so that the next call tries again: a
 * chunk that did not arrive is fetched anew rather than failing for good.
 */
export function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
}
