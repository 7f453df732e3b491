import type { UndoStep } from '@/application/undo-steps'

/** Text from a post, safe to print: control characters (ANSI escapes included) are escaped. */
export function quoted(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

function now(revision: number | undefined): string {
  return revision === undefined ? '' : `  (now revision ${revision})`
}

/** One step of an undo (restore or rollback) as a line; a dry run's steps say "would". */
export function formatStep(step: UndoStep, dryRun: boolean): string {
  const would = dryRun ? 'would ' : ''
  const head = (verb: string) => `${would}${verb}`.padEnd(dryRun ? 15 : 9)
  switch (step.kind) {
    case 'untrashed':
      return `${head('untrashed')}  ${step.id}  ${quoted(step.title)}${now(step.revision)}`
    case 'trashed':
      return `${head('trashed')}  ${step.id}  ${quoted(step.title)}${now(step.revision)}`
    case 'reverted':
      return (
        `${head('reverted')}  ${step.id}  ${quoted(step.title)}  to revision ${step.toRevision}` +
        (step.revision === undefined ? '' : ` (now revision ${step.revision})`)
      )
    case 'skipped':
      return step.why === 'hidden'
        ? `${head('skipped')}  ${step.id}  ${quoted(step.title)}  revision ${step.revision}, to go back to, is hidden`
        : `${head('skipped')}  ${step.id}  ${quoted(step.title)}  changed after by ${step.by ?? 'someone'} ` +
            `(revision ${step.revision}); --force to undo anyway`
  }
}

/** How many posts the steps touched, and how: the last line of an undo's report. */
export function countSteps(steps: readonly UndoStep[]): string {
  const count = (kind: UndoStep['kind']) => steps.filter((step) => step.kind === kind).length
  const posts = new Set(steps.filter((step) => step.kind !== 'skipped').map((step) => step.id))
  return (
    `${posts.size} post(s): ${count('untrashed')} put back from the trash, ` +
    `${count('reverted')} reverted` +
    (count('trashed') > 0 ? `, ${count('trashed')} trashed` : '') +
    (count('skipped') > 0 ? `; ${count('skipped')} left alone` : '')
  )
}
