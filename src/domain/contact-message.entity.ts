/** A message a visitor sends through the contact form. */
export interface ContactMessage {
  readonly name: string
  readonly email: string
  readonly message: string
}

export type ContactField = keyof ContactMessage

export const CONTACT_FIELDS: readonly ContactField[] = ['name', 'email', 'message']
