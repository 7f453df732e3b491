import { useFormik, type FormikValues } from 'formik'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { AnyStateMachine, EventFromLogic, InputFrom, SnapshotFrom } from 'xstate'
import type { FieldErrors } from '@/domain/rules/field-rule'
import { useInspectedMachine } from '@/ui/shared/inspection'
import type { FormDraftHandle } from '@/ui/shared/use-form-draft'

interface FormMachineContext {
  readonly fieldErrors: FieldErrors<string>
}

export interface MachineFormOptions<Machine extends AnyStateMachine, Values extends FormikValues> {
  /** A form machine with `resetForm` and `clearDraft` actions and `fieldErrors` in its context. */
  readonly machine: Machine
  readonly input?: InputFrom<Machine>
  /** What the form holds without a draft: empty, or the stored post. A reset goes back to it. */
  readonly baseline: Values
  /** The revision of the stored post the form shows, for a draft started now. */
  readonly revision?: number
  /** Whether `baseline` is known yet (the edit form's post has loaded); by default it is. */
  readonly baselineReady?: boolean
  readonly validationSchema: unknown
  readonly submitEvent: (values: Values) => EventFromLogic<Machine>
  /** Reload the values when `baseline` changes (the edit form, once its item loads). */
  readonly enableReinitialize?: boolean
  /** Keeps what is typed across a reload; a restored draft wins over the baseline. */
  readonly draft?: FormDraftHandle<string>
}

/**
 * Runs a form machine beside a Formik form. Formik owns what is typed and shows errors once
 * a field is touched; the machine decides what a submit does. Errors the machine reports
 * (a server's field messages) show on their fields, its `resetForm` effect resets the form,
 * and its `clearDraft` effect forgets the draft.
 */
export function useMachineForm<Machine extends AnyStateMachine, Values extends FormikValues>(
  options: MachineFormOptions<Machine, Values>,
) {
  const { draft, baseline, revision, baselineReady = true } = options
  const reset = useRef<() => void>(() => undefined)
  const clearDraft = useRef<() => void>(() => undefined)
  const [machine] = useState(() =>
    options.machine.provide({
      actions: { resetForm: () => reset.current(), clearDraft: () => clearDraft.current() },
    }),
  )
  const [state, send, actor] = useInspectedMachine(machine, { input: options.input })
  const restored = draft?.restored
  const initialValues = useMemo(
    () => (restored?.values as Values | undefined) ?? baseline,
    [restored, baseline],
  )
  const formik = useFormik<Values>({
    initialValues,
    validationSchema: options.validationSchema,
    enableReinitialize: options.enableReinitialize ?? false,
    onSubmit: (values) => {
      send(options.submitEvent(values))
      // A submit that ends the form (an edit, handed to the news store) leaves the draft to the
      // store: it is written now, and nothing the closing form shows changes it.
      if (actor.getSnapshot().status === 'done') {
        draft?.keeper.handOver(values as Record<string, string>)
      }
    },
  })
  const { resetForm, setErrors, setTouched, values } = formik
  useEffect(() => {
    reset.current = () => resetForm({ values: baseline })
    clearDraft.current = () => draft?.forget()
  }, [resetForm, baseline, draft])

  useEffect(() => {
    if (baselineReady) draft?.keeper.setBaseline(baseline as Record<string, string>, revision)
  }, [draft, baseline, revision, baselineReady])
  useEffect(() => {
    draft?.keeper.track(values as Record<string, string>)
  }, [draft, values])

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

  /** Throws the draft away and shows the form as it is without one. */
  const discardDraft = () => {
    draft?.forget()
    resetForm({ values: baseline })
  }

  return { state: state as SnapshotFrom<Machine>, send, formik, formRef, restored, discardDraft }
}
