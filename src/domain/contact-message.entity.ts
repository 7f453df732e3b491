/** The contact form's fields, in its order. */
export const CONTACT_FIELDS = ['name', 'email', 'message'] as const

export type ContactField = (typeof CONTACT_FIELDS)[number]

/** A message a visitor sends through the contact form. */
export type ContactMessage = Readonly<Record<ContactField, string>>
