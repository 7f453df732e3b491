/**
 * A new key for one submission of the add form (the API's Idempotency-Key). crypto.randomUUID
 * exists only in secure contexts, so a page served over plain HTTP makes one from
 * getRandomValues, which exists everywhere.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}
