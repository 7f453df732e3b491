/**
 * What the visitor typed into the server-rendered page's forms before the app ran. React keeps
 * most of it when it hydrates a field, but not all: it puts a textarea's server-rendered text
 * back over what was typed. So the app notes, from the moment it starts, what each field holds
 * that the server did not send, and what is typed until the form's screen has hydrated; the
 * form then takes it as typed (see useMachineForm).
 */
const typed = new WeakMap<Element, string>()
let watching = false

type TextControl = HTMLInputElement | HTMLTextAreaElement

function isTextControl(target: unknown): target is TextControl {
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement
}

/** Starts noting typing: what the page's fields hold now, and each change from now on. */
export function watchEarlyTyping(document: Document): void {
  if (watching) return
  watching = true
  for (const field of document.querySelectorAll('form input, form textarea')) {
    if (isTextControl(field) && field.value !== field.defaultValue) typed.set(field, field.value)
  }
  document.addEventListener(
    'input',
    ({ target }) => {
      if (isTextControl(target)) typed.set(target, target.value)
    },
    true,
  )
}

/** The text typed into `field`, as last noted, or its own value when none was noted. */
export function typedInto(field: TextControl): string {
  return typed.get(field) ?? field.value
}
