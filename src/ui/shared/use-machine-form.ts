import { useFormik, type FormikValues } from 'formik'
import { useEffect, useRef, useState } from 'react'
import type { AnyStateMachine, EventFromLogic, InputFrom, SnapshotFrom } from 'xstate'
import type { FieldErrors } from '@/domain/rules/field-rule'
import { useInspectedMachine } from '@/ui/shared/inspection'

interface FormMachineContext {
  readonly fieldErrors: FieldErrors<string>
}

export interface MachineFormOptions<Machine extends AnyStateMachine, Values extends FormikValues> {
  /** A form machine with a `resetForm` action and `fieldErrors` in its context. */
  readonly machine: Machine
  readonly input?: InputFrom<Machine>
  readonly initialValues: Values
  readonly validationSchema: unknown
  readonly submitEvent: (values: Values) => EventFromLogic<Machine>
  /** Reload the values when `initialValues` change (the edit form, once its item loads). */
  readonly enableReinitialize?: boolean
}

/**
 * Runs a form machine beside a Formik form. Formik owns what is typed and shows errors once
 * a field is touched; the machine decides what a submit does. Errors the machine reports
 * (a server's field messages) show on their fields, and its `resetForm` effect resets the form.
 */
export function useMachineForm<Machine extends AnyStateMachine, Values extends FormikValues>(
  options: MachineFormOptions<Machine, Values>,
) {
  const reset = useRef<() => void>(() => undefined)
  const [machine] = useState(() =>
    options.machine.provide({ actions: { resetForm: () => reset.current() } }),
  )
  const [state, send] = useInspectedMachine(machine, { input: options.input })
  const formik = useFormik<Values>({
    initialValues: options.initialValues,
    validationSchema: options.validationSchema,
    enableReinitialize: options.enableReinitialize ?? false,
    onSubmit: (values) => send(options.submitEvent(values)),
  })
  const { resetForm, setErrors, setTouched } = formik
  useEffect(() => {
    reset.current = () => resetForm()
  }, [resetForm])

  const { fieldErrors } = (state as { context: FormMachineContext }).context
  useEffect(() => {
    const fields = Object.keys(fieldErrors)
    if (fields.length === 0) return
    const touched = Object.fromEntries(fields.map((field) => [field, true]))
    void setTouched(touched as Parameters<typeof setTouched>[0], false)
    setErrors(fieldErrors as Parameters<typeof setErrors>[0])
  }, [fieldErrors, setErrors, setTouched])

  // After a refused submit, take the visitor to the first field that needs attention.
  const formRef = useRef<HTMLFormElement>(null)
  const wasSubmitting = useRef(false)
  const { isSubmitting, errors } = formik
  useEffect(() => {
    if (wasSubmitting.current && !isSubmitting && Object.keys(errors).length > 0) {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
    }
    wasSubmitting.current = isSubmitting
  }, [isSubmitting, errors])

  return { state: state as SnapshotFrom<Machine>, send, formik, formRef }
}
