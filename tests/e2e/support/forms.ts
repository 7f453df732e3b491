import { expect, type Locator, type Page } from '@playwright/test'
import type { NewsDraft } from './news-api'
import { withRoomUsed } from './screens'

/** What the contact form sends. */
export interface Contact {
  readonly name: string
  readonly email: string
  readonly message: string
}

/**
 * The add or edit form's fields, and the edit form's button. Found by their exact labels: a
 * review names its groups after the fields ('Title: you both changed it').
 */
export function newsForm(page: Page) {
  const fields = labelled(page, { title: 'Title', author: 'Author Name', body: 'Body' })
  return { ...fields, save: page.getByRole('main').getByRole('button', { name: 'Edit news' }) }
}

/** The contact form's fields. */
export function contactForm(page: Page) {
  return labelled(page, { name: 'Name', email: 'Email Address', message: 'Your Message' })
}

/** The main region's fields, each found by its exact label. */
function labelled<Name extends string>(
  page: Page,
  labels: Readonly<Record<Name, string>>,
): Record<Name, Locator> {
  const main = page.getByRole('main')
  const entries = Object.entries<string>(labels).map(([name, label]) => [
    name,
    main.getByLabel(label, { exact: true }),
  ])
  return Object.fromEntries(entries) as Record<Name, Locator>
}

type Values<Name extends string> = Partial<Readonly<Record<NoInfer<Name>, string>>>

/** Types each of `values` into its field, in the form's order; fields without one stay. */
export async function fillFields<Name extends string>(
  fields: Readonly<Record<Name, Locator>>,
  values: Values<Name>,
): Promise<void> {
  for (const [field, value] of valued(fields, values)) await field.fill(value)
}

/** Expects each field that `values` names to hold its value. */
export async function expectFieldValues<Name extends string>(
  fields: Readonly<Record<Name, Locator>>,
  values: Values<Name>,
): Promise<void> {
  for (const [field, value] of valued(fields, values)) await expect(field).toHaveValue(value)
}

/** The fields that `values` gives a value, each with it, in the form's order. */
function valued<Name extends string>(
  fields: Readonly<Record<Name, Locator>>,
  values: Values<Name>,
): [Locator, string][] {
  return (Object.keys(fields) as Name[]).flatMap((name) => {
    const value = values[name]
    return typeof value === 'string' ? [[fields[name], value] as [Locator, string]] : []
  })
}

/** Opens the form at `path`, and expects no message on it before a field is touched. */
export async function openUntouched(page: Page, path: string): Promise<void> {
  await page.goto(path)
  await expect(page.getByRole('main').getByRole('textbox').first()).toBeVisible()
  await expect(fieldErrors(page)).toHaveCount(0)
}

/** Writes `post` into the add or edit form on the page, and sends it. */
export async function writePost(page: Page, post: Partial<NewsDraft>): Promise<void> {
  await fillFields(newsForm(page), post)
  await page
    .getByRole('main')
    .getByRole('button', { name: /^(Add|Edit) news$/ })
    .click()
}

/** Writes `contact` into the contact form on the page, and sends it. */
export async function sendContact(page: Page, contact: Partial<Contact>): Promise<void> {
  await fillFields(contactForm(page), contact)
  await page.getByRole('main').getByRole('button', { name: 'Submit' }).click()
}

/** Expects `field` to be described by `message`, then the room it has used where it counts. */
export async function expectFieldMessage(field: Locator, message: string): Promise<void> {
  await expect(field).toHaveAccessibleDescription(withRoomUsed(message))
}

/**
 * Expects `field`, once touched while empty, to ask for a value, the only message on the form,
 * then to take `max` characters and not one more.
 */
export async function expectRequiredUpTo(
  field: Locator,
  max: number,
  messages: { readonly required: string; readonly tooLong: string },
): Promise<void> {
  const page = field.page()
  await field.focus()
  await field.blur()
  await expectFieldMessage(field, messages.required)
  await expect(fieldErrors(page)).toHaveText([messages.required])
  await field.fill('x'.repeat(max + 1))
  await expectFieldMessage(field, messages.tooLong)
  await field.fill('x'.repeat(max))
  await expect(fieldErrors(page)).toHaveCount(0)
}

/** Expects `field`, left with one character more than `max`, then emptied, to say so each time. */
export async function expectTooLongThenRequired(
  field: Locator,
  max: number,
  messages: { readonly required: string; readonly tooLong: string },
): Promise<void> {
  await field.fill('x'.repeat(max + 1))
  await field.blur()
  await expectFieldMessage(field, messages.tooLong)
  await field.fill('')
  await expectFieldMessage(field, messages.required)
}

/** The messages under a form's fields. */
export const fieldErrors = (page: Page): Locator => page.getByRole('main').locator('.field-error')
