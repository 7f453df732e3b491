import { object, string, type ObjectSchema, type StringSchema } from 'yup'
import { checkField, type RuleSet } from '@/domain/rules/field-rule'

/** A yup schema that checks each field with the domain's rule, so the form shows the domain's message. */
export function formSchema<Field extends string>(
  rules: RuleSet<Field>,
): ObjectSchema<Record<Field, string>> {
  const shape: Record<string, StringSchema> = {}
  for (const [field, rule] of Object.entries(rules) as [Field, RuleSet<Field>[Field]][]) {
    shape[field] = string().test({
      name: 'domain-rule',
      test: (value, context) => {
        const message = checkField(rule, value)
        return message === undefined || context.createError({ message })
      },
    })
  }
  return object(shape) as unknown as ObjectSchema<Record<Field, string>>
}
