import { useCallback, useEffect, useState } from 'react'
import { type Draft, type DraftStorage } from '@/ui/shared/draft-storage'
import { parseDraft, readDraft, writeDraft } from '@/ui/shared/draft-values'
import { useHydrated } from '@/ui/shared/use-hydrated'

/** How long typing must pause before the draft is written. */
export const DRAFT_DELAY_MS = 300

export interface FormDraftOptions<Field extends string> {
  readonly storage: DraftStorage
  readonly key: string
  readonly fields: readonly Field[]
  readonly delayMs?: number
  /**
   * The visitor's text the app still holds in memory (an edit the news store could not save):
   * it wins over what storage kept.
   */
  readonly fromMemory?: Draft<Values<Field>>
}

type Values<Field extends string> = Record<Field, string>

/**
 * Keeps one form's draft: writes what is typed after a pause, at once when the page is hidden
 * or the form closes, and nothing that equals what the form shows without a draft.
 */
export class FormDraft<Field extends string> {
  /** The draft found when the form opened, until it is discarded or sent. */
  restored: Draft<Values<Field>> | undefined
  private latest: Values<Field> | undefined
  /**
   * What the form showed without a draft when it opened (or when the draft was forgotten):
   * values equal to it are no draft. It stays put while the form is open, so that the news
   * store showing a sent edit over the stored post cannot make the edit look like no draft.
   */
  private baseline: Values<Field> | undefined
  /** The values the form would show without a draft now. */
  private offered: Values<Field> | undefined
  /** The revision the draft was started from; it stays while the draft lives. */
  private revision: number | undefined
  /** That revision's values, as the form showed them. */
  private base: Values<Field> | undefined
  /** The revision of the post the form shows now, for a draft started now. */
  private shown: number | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  /** Values just sent or discarded: the form may report them once more as it closes. */
  private settled: string | undefined
  /** What was last written, so that closing the form never writes it again. */
  private written: string | undefined
  /** The form handed its text on (an edit, to the news store): the draft is no longer its. */
  private closed = false

  constructor(private readonly options: FormDraftOptions<Field>) {
    this.restored = options.fromMemory ?? readDraft(options.storage, options.key, options.fields)
    this.revision = this.restored?.revision
    this.base = this.restored?.base
  }

  /**
   * The values of the version the visitor's text was started from: the restored draft's, or
   * what the form shows without a draft; undefined for an old draft that did not keep them.
   */
  startedFrom(): Values<Field> | undefined {
    if (this.restored !== undefined) return this.restored.base
    return this.base ?? this.baseline
  }

  /**
   * Takes a draft that arrived late (a closed tab's, adopted once the tab knew which tabs are
   * open), unless the form already holds one or was typed in: true when it was taken.
   */
  offer(text: string | undefined): boolean {
    if (text === undefined || this.restored !== undefined || this.written !== undefined) {
      return false
    }
    if (this.latest !== undefined && this.offered !== undefined) {
      if (!sameValues(this.latest, this.offered, this.options.fields)) return false
    }
    const draft = parseDraft(text, this.options.fields)
    if (draft === undefined) return false
    this.restored = { ...draft, adopted: true }
    this.revision = draft.revision
    this.base = draft.base
    return true
  }

  /** What the form shows without a draft (empty, or the stored post) and that post's revision. */
  setBaseline(baseline: Values<Field>, revision?: number): void {
    this.offered = baseline
    this.baseline ??= baseline
    this.shown = revision
  }

  /** The form's values changed. */
  track(values: Values<Field>): void {
    if (this.closed) return
    const text = JSON.stringify(values)
    if (text === this.settled) return
    this.settled = undefined
    if (this.latest !== undefined && JSON.stringify(this.latest) === text) return
    this.latest = values
    this.cancel()
    this.timer = setTimeout(() => this.flush(), this.options.delayMs ?? DRAFT_DELAY_MS)
  }

  /** Writes the latest values now. */
  flush(): void {
    this.cancel()
    const values = this.latest
    if (this.closed || values === undefined) return
    const text = JSON.stringify(values)
    if (text === this.settled || text === this.written) return
    // Until the form knows what it shows without a draft (the edit form's post is loading),
    // there is nothing typed to keep.
    if (this.baseline === undefined) return
    this.written = text
    if (sameValues(values, this.baseline, this.options.fields)) {
      this.options.storage.remove(this.options.key)
      this.revision = undefined
      this.base = undefined
      return
    }
    // A draft remembers the version it was started from, however long it is worked on.
    const revision = this.revision ?? this.shown
    if (this.revision === undefined) this.base ??= this.offered
    this.revision = revision
    const base = this.base
    writeDraft(this.options.storage, this.options.key, {
      values,
      ...(revision === undefined ? {} : { revision }),
      ...(base === undefined || revision === undefined ? {} : { base }),
    })
  }

  /**
   * Writes `values` now and lets go of the draft: the edit form hands its text to the news
   * store, which forgets the draft once the save succeeds and keeps it otherwise, whatever
   * the closing form shows meanwhile.
   */
  handOver(values: Values<Field>): void {
    this.latest = values
    this.flush()
    this.closed = true
  }

  /** The form was sent, or the visitor threw the draft away: forget it. */
  clear(): void {
    this.cancel()
    this.options.storage.remove(this.options.key)
    this.settled = this.latest === undefined ? undefined : JSON.stringify(this.latest)
    this.latest = undefined
    this.written = undefined
    this.restored = undefined
    this.revision = undefined
    this.base = undefined
    this.baseline = this.offered
  }

  private cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }
}

function sameValues<Field extends string>(
  a: Values<Field>,
  b: Values<Field>,
  fields: readonly Field[],
): boolean {
  return fields.every((field) => a[field] === b[field])
}

/** A form screen's draft: the keeper, the draft found on opening, and a way to forget it. */
export interface FormDraftHandle<Field extends string> {
  readonly keeper: FormDraft<Field>
  /** The draft found when the form opened, until it is sent or discarded. */
  readonly restored: Draft<Values<Field>> | undefined
  /** The draft was sent or discarded: remove it. */
  readonly forget: () => void
}

/**
 * One FormDraft for the life of a form screen. It writes what is left when the page is
 * hidden (a closed tab, a reload) and when the screen closes.
 */
export function useFormDraft<Field extends string>(
  options: FormDraftOptions<Field>,
): FormDraftHandle<Field> {
  const [keeper] = useState(() => new FormDraft(options))
  // A server-rendered form is hydrated as the server sent it, with no draft (the server cannot
  // see the browser's storage); the draft shows right after, in the next render.
  const hydrated = useHydrated()
  const [restored, setRestored] = useState(() => (hydrated ? keeper.restored : undefined))
  useEffect(() => {
    if (hydrated) setRestored((shown) => shown ?? keeper.restored)
  }, [hydrated, keeper])
  // A tab with no draft of its own offers the one a closed tab left, once.
  const { storage, key } = options
  useEffect(() => {
    if (keeper.restored !== undefined || storage.adopt === undefined) return
    let open = true
    void storage.adopt(key).then((text) => {
      if (open && keeper.offer(text)) setRestored(keeper.restored)
    })
    return () => {
      open = false
    }
  }, [keeper, storage, key])
  useEffect(() => {
    const flush = () => keeper.flush()
    globalThis.addEventListener('pagehide', flush)
    return () => {
      globalThis.removeEventListener('pagehide', flush)
      keeper.flush()
    }
  }, [keeper])
  const forget = useCallback(() => {
    keeper.clear()
    setRestored(undefined)
  }, [keeper])
  return { keeper, restored, forget }
}
