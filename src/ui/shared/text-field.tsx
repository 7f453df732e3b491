import { useField } from 'formik'

export interface TextFieldProps {
  readonly name: string
  readonly label: string
  readonly multiline?: boolean
  readonly type?: 'text' | 'email'
  readonly autoComplete?: string
}

/** A labelled input whose error shows beside it once the field was touched. */
export function TextField({
  name,
  label,
  multiline = false,
  type = 'text',
  autoComplete,
}: TextFieldProps) {
  const [field, meta] = useField<string>(name)
  const id = `field-${name}`
  const errorId = `${id}-error`
  const showError = meta.touched && meta.error !== undefined
  const common = {
    ...field,
    id,
    'aria-invalid': showError,
    'aria-describedby': showError ? errorId : undefined,
    className: 'field-control',
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={8} />
      ) : (
        <input {...common} type={type} autoComplete={autoComplete} />
      )}
      {/* The message's line is kept free, so that a message appearing on blur never moves the
          submit button out from under the click that caused the blur. */}
      <div className="field-message">
        {showError && (
          <p className="field-error" id={errorId}>
            {meta.error}
          </p>
        )}
      </div>
    </div>
  )
}
