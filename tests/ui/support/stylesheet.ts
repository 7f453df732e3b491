import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * The declarations the app's stylesheet gives a selector. jsdom applies no CSS from files, so a
 * test checks that an element has the class and that the class carries the style.
 */
export function declarationsOf(selector: string): Record<string, string> {
  const css = readFileSync(resolve(process.cwd(), 'src/ui/app/app.css'), 'utf8')
  const declarations: Record<string, string> = {}
  for (const [, selectors = '', body = ''] of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    if (!selectors.split(',').some((each) => each.trim() === selector)) continue
    for (const declaration of body.split(';')) {
      const [property, ...value] = declaration.split(':')
      if (property?.trim() && value.length > 0)
        declarations[property.trim()] = value.join(':').trim()
    }
  }
  return declarations
}
