import { useFormik, type FormikTouched, type FormikValues } from 'formik'
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import type { AnyStateMachine, EventFromLogic, InputFrom, SnapshotFrom } from 'xstate'
import type { FieldErrors } from '@/domain/rules/field-rule'
import { useInspectedMachine } from '@/ui/shared/inspection'
import { typedInto } from '@/ui/shared/early-typing'
import { useHydrated } from '@/ui/shared/use-hydrated'
import type { FormDraftHandle } from '@/ui/shared/use-form-draft'

interface FormMachineContext {
  readonly fieldErrors: FieldErrors<string>
}

export interface MachineFormOptions<Machine extends AnyStateMachine, Values extends FormikValues> {
  /** A form machine with `resetForm` and `clearDraft` actions and `fieldErrors` in its context. */
  readonly machine: Machine
  readonly input?: InputFrom<Machine>
  /**
   * Where the machine starts instead of its initial state, made from the machine as given
   * (the server rendered the edit form with its post, so it need not load it again).
   */
  readonly startAt?: (machine: Machine) => SnapshotFrom<Machine>
  /** What the form holds without a draft: empty, or the stored post. A reset goes back to it. */
  readonly baseline: Values
  /** The revision of the stored post the form shows, for a draft started now. */
  readonly revision?: number
  /** Whether `baseline` is known yet (the edit form's post has loaded); by default it is. */
  readonly baselineReady?: boolean
  /** What the form shows of a restored draft, when not its values as kept (a reviewed edit). */
  readonly restoredValues?: Values
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
  const [state, send, actor] = useInspectedMachine(
    machine,
    options.startAt === undefined
      ? { input: options.input }
      : { snapshot: options.startAt(options.machine) },
  )
  const restored = draft?.restored
  const { restoredValues } = options
  const initialValues = useMemo(
    () =>
      restored === undefined
        ? baseline
        : (restoredValues ?? (restored.values as Values | undefined) ?? baseline),
    [restored, restoredValues, baseline],
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

  const formRef = useRef<HTMLFormElement>(null)
  const typedBeforeHydration = useAdoptTypedBeforeHydration(formRef, formik)
  useShowDraftRestoredLate(restored, initialValues, formik, typedBeforeHydration)

  // After a refused submit, take the visitor to the first field that needs attention.
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

  // Until the app runs, a press of the submit button would send the form as a page load.
  const canSubmit = useHydrated()

  return {
    state: state as SnapshotFrom<Machine>,
    send,
    formik,
    formRef,
    restored,
    discardDraft,
    canSubmit,
  }
}

/**
 * What the visitor typed into a server-rendered form before the app ran (see early-typing.ts):
 * the form's state does not know it, and the next render would put the state's values back.
 * So the form takes it once, on mount, as typed: into its values, which its draft keeps, and
 * with the fields marked touched.
 */
function useAdoptTypedBeforeHydration<Values extends FormikValues>(
  formRef: RefObject<HTMLFormElement | null>,
  formik: {
    readonly values: Values
    readonly setValues: (values: Values) => unknown
    readonly setTouched: (touched: FormikTouched<Values>, validate?: boolean) => unknown
  },
): RefObject<Record<string, string>> {
  const adopted = useRef(false)
  const typed = useRef<Record<string, string>>({})
  useEffect(() => {
    const form = formRef.current
    if (adopted.current || form === null) return
    adopted.current = true
    const text: Record<string, string> = {}
    for (const [name, value] of Object.entries(formik.values)) {
      const field = form.elements.namedItem(name)
      const fieldText =
        field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement
          ? typedInto(field)
          : undefined
      if (fieldText !== undefined && fieldText !== value) text[name] = fieldText
    }
    typed.current = text
    const fields = Object.keys(text)
    if (fields.length === 0) return
    // Typed is typed: the fields count as touched, as they would after typing and leaving them.
    void formik.setValues({ ...formik.values, ...text })
    const touched = Object.fromEntries(fields.map((name) => [name, true]))
    void formik.setTouched(touched as FormikTouched<Values>, false)
  })
  return typed
}

/**
 * A draft that arrives after the first render (a server-rendered form finds it once hydrated)
 * fills the form then, keeping anything typed before the app ran over it.
 */
function useShowDraftRestoredLate<Values extends FormikValues>(
  restored: { readonly values: unknown } | undefined,
  initialValues: Values,
  formik: { readonly values: Values; readonly setValues: (values: Values) => unknown },
  typedBeforeHydration: RefObject<Record<string, string>>,
): void {
  const shownAtStart = useRef(restored !== undefined)
  useEffect(() => {
    if (restored === undefined || shownAtStart.current) return
    shownAtStart.current = true
    void formik.setValues({ ...initialValues, ...typedBeforeHydration.current })
    // Only the draft's arrival fills the form; later renders leave the visitor's values alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [restored])
}
