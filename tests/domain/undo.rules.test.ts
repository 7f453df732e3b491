import type { NewsRevision } from '@/domain/news-revision.entity'
import { planRestore, planRollback, undoOfChange } from '@/domain/rules/undo.rules'

const VANDAL = 'bad0bad0ba'
const ADA = 'a1a1a1a1a1'
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString()

/** A history newest first, from [revision, action, editor, title] oldest first. */
function history(...versions: [NewsRevision['action'], string, string][]): NewsRevision[] {
  return versions
    .map(([action, editor, title], index) => ({
      revision: index + 1,
      action,
      editor,
      title,
      body: 'b',
      author: 'a',
      at: at(index * 10),
    }))
    .reverse()
}

describe('rolling back one editor', () => {
  it('takes a post they edited back to the last version by someone else', () => {
    const edited = history(
      ['create', ADA, 'Good'],
      ['edit', VANDAL, 'Spam'],
      ['edit', VANDAL, 'Spam!'],
    )
    expect(planRollback(edited, { editor: VANDAL })).toEqual({
      kind: 'steps',
      actions: [{ kind: 'revert', toRevision: 1 }],
    })
  })

  it('sends a post they created to the trash, and brings back one they deleted', () => {
    expect(planRollback(history(['create', VANDAL, 'Spam']), { editor: VANDAL })).toEqual({
      kind: 'steps',
      actions: [{ kind: 'trash' }],
    })
    const deleted = history(['create', ADA, 'Good'], ['delete', VANDAL, 'Good'])
    expect(planRollback(deleted, { editor: VANDAL })).toEqual({
      kind: 'steps',
      actions: [{ kind: 'untrash' }],
    })
  })

  it('leaves a post someone else changed after them, unless forced', () => {
    const fixed = history(['create', ADA, 'Good'], ['edit', VANDAL, 'Spam'], ['edit', ADA, 'Fixed'])
    expect(planRollback(fixed, { editor: VANDAL })).toEqual({
      kind: 'skipped',
      why: 'changed-after',
      by: ADA,
      revision: 3,
    })
    expect(planRollback(fixed, { editor: VANDAL, force: true })).toEqual({
      kind: 'steps',
      actions: [{ kind: 'revert', toRevision: 1 }],
    })
  })

  it('undoes only their changes made since the time given', () => {
    const old = history(['create', VANDAL, 'Fine then'], ['edit', VANDAL, 'Spam'])
    expect(planRollback(old, { editor: VANDAL, since: at(5) })).toEqual({
      kind: 'steps',
      actions: [{ kind: 'revert', toRevision: 1 }],
    })
    expect(planRollback(old, { editor: VANDAL, since: at(15) })).toEqual({
      kind: 'steps',
      actions: [],
    })
  })

  it('does not bring back a version the operator hid', () => {
    const hidden = history(['create', ADA, ''], ['edit', VANDAL, 'Spam'])
    const withHidden = hidden.map((revision) =>
      revision.revision === 1 ? { ...revision, hidden: true as const } : revision,
    )
    expect(planRollback(withHidden, { editor: VANDAL })).toMatchObject({
      kind: 'skipped',
      why: 'hidden',
    })
  })
})

describe('restoring a window of changes', () => {
  const edited = history(['create', ADA, 'Good'], ['edit', VANDAL, 'Spam'], ['edit', ADA, 'Later'])

  it('goes back to the version at --since, leaving a post changed after --until alone', () => {
    expect(planRestore(edited, { since: at(5) })).toEqual({
      kind: 'steps',
      actions: [{ kind: 'revert', toRevision: 1 }],
    })
    expect(planRestore(edited, { since: at(5), until: at(15) })).toEqual({
      kind: 'skipped',
      why: 'changed-after',
      by: ADA,
      revision: 3,
    })
  })

  it('leaves alone a post made in the window', () => {
    expect(planRestore(edited, { since: at(-5) })).toEqual({ kind: 'steps', actions: [] })
  })
})

describe('undoOfChange', () => {
  it('reverts an edit to the version before, trashes a new or restored post, restores a deleted one', () => {
    expect(undoOfChange({ kind: 'edited', revision: 4 })).toEqual({ kind: 'revert', toRevision: 3 })
    expect(undoOfChange({ kind: 'created', revision: 1 })).toEqual({ kind: 'trash' })
    expect(undoOfChange({ kind: 'restored', revision: 3 })).toEqual({ kind: 'trash' })
    expect(undoOfChange({ kind: 'deleted', revision: 2 })).toEqual({ kind: 'untrash' })
  })

  it('offers nothing for an edit with no version before it', () => {
    expect(undoOfChange({ kind: 'edited', revision: 1 })).toBeUndefined()
  })
})
