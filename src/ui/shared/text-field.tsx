import { useField } from 'formik'
import { useEffect, useRef, useState, type RefObject } from 'react'
import type { FieldRule } from '@/domain/rules/field-rule'
import {
  isOverLimit,
  roomAnnouncement,
  roomLabel,
  roomUsed,
  type RoomUsed,
} from '@/ui/shared/room-used'

/** How long typing pauses before the room left is announced. */
const ANNOUNCE_AFTER_MS = 700

export interface TextFieldProps {
  readonly name: string
  readonly label: string
  /** The domain's rule for the field: every rule makes the field required and sets its limit. */
  readonly rule: FieldRule
  /** Whether to show the room used against the limit; off where the limit is no real concern. */
  readonly counted?: boolean
  readonly multiline?: boolean
  readonly type?: 'text' | 'email'
  readonly autoComplete?: string
}

/**
 * A labelled input, marked required, whose error shows beside it once the field was touched,
 * with the room used against its limit ('12/100') as part of its description.
 */
export function TextField({
  name,
  label,
  rule,
  counted = true,
  multiline = false,
  type = 'text',
  autoComplete,
}: TextFieldProps) {
  const [field, meta] = useField<string>(name)
  const id = `field-${name}`
  const errorId = `${id}-error`
  const countId = `${id}-count`
  const showError = meta.touched && meta.error !== undefined
  const room = counted ? roomUsed(field.value, rule.maxLength.limit) : undefined
  const control = useRef<HTMLInputElement & HTMLTextAreaElement>(null)
  const announcement = useRoomAnnouncement(room, control)
  const describedBy = [showError ? errorId : '', room ? countId : ''].filter(Boolean).join(' ')
  const common = {
    ...field,
    id,
    ref: control,
    // The form checks itself (noValidate) and shows the domain's messages; this only says so.
    required: true,
    'aria-invalid': showError,
    'aria-describedby': describedBy || undefined,
    className: 'field-control',
  }
  return (
    <div className="field">
      <div className="field-label">
        <label htmlFor={id}>{label}</label>
        <span className="field-required">
          <span aria-hidden="true">*</span>
          <span className="visually-hidden">required</span>
        </span>
      </div>
      {multiline ? (
        <textarea {...common} rows={8} />
      ) : (
        <input {...common} type={type} autoComplete={autoComplete} />
      )}
      {/* The message's line is kept free, so that a message appearing on blur never moves the
          submit button out from under the click that caused the blur. */}
      <div className="field-footer">
        <div className="field-message">
          {showError && (
            <p className="field-error" id={errorId}>
              {meta.error}
            </p>
          )}
        </div>
        {room && (
          <p className="field-count" id={countId} data-over={isOverLimit(room) || undefined}>
            {roomLabel(room)}
          </p>
        )}
      </div>
      {room && (
        <p className="visually-hidden" role="status">
          {announcement}
        </p>
      )}
    </div>
  )
}

/**
 * The room left, for a polite live region: set once typing in the field pauses, and only near
 * the limit (see roomAnnouncement), so that a screen reader is not interrupted on every key.
 */
function useRoomAnnouncement(
  room: RoomUsed | undefined,
  control: RefObject<HTMLElement | null>,
): string {
  const [announced, setAnnounced] = useState('')
  const text = room === undefined ? '' : roomAnnouncement(room)
  useEffect(() => {
    const timer = setTimeout(() => {
      // Only the field being typed in speaks; a draft restored on load stays quiet.
      setAnnounced(control.current === document.activeElement ? text : '')
    }, ANNOUNCE_AFTER_MS)
    return () => clearTimeout(timer)
  }, [text, control])
  return announced
}

/** Says what the fields' '*' means, once, above a form's fields. */
export function RequiredNote() {
  return <p className="form-note">Fields marked * are required.</p>
}
