/**
 * The `type`s of the problems a client acts on by kind, not by status alone: the operator's
 * refusals (403). Relative URIs, resolved against the site (RFC 9457, 3.1.1). A module of its
 * own, so that the browser reads them without the schemas.
 */
export const PROBLEM_TYPES = {
  blocked: '/problems/blocked',
  protected: '/problems/protected',
} as const
