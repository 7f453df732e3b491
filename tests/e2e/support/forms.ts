import { expect, type Locator, type Page } from '@playwright/test'
import { withRoomUsed } from './screens'

/** A form's fields, each found by its label. */
export function formFields<Name extends string>(
  page: Page,
  labels: Readonly<Record<Name, string>>,
): Record<Name, Locator> {
  const entries = Object.entries<string>(labels).map(([name, label]) => [
    name,
    page.getByLabel(label),
  ])
  return Object.fromEntries(entries) as Record<Name, Locator>
}

/** Types each of `values` into its field, in the fields' order. */
export async function fillFields<Name extends string>(
  fields: Record<Name, Locator>,
  values: Readonly<Record<Name, string>>,
): Promise<void> {
  for (const name of Object.keys(fields) as Name[]) await fields[name].fill(values[name])
}

/** Expects each field to hold its value of `values`. */
export async function expectFieldValues<Name extends string>(
  fields: Record<Name, Locator>,
  values: Readonly<Record<Name, string>>,
): Promise<void> {
  for (const name of Object.keys(fields) as Name[])
    await expect(fields[name]).toHaveValue(values[name])
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
