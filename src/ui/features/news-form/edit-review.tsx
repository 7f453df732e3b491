import { useState } from 'react'
import type { NewsDraft, NewsField, NewsItem } from '@/domain/news-item.entity'
import type { EditReview } from '@/domain/rules/edit-review'
import { REVIEW_TEXTS } from '@/ui/shared/form-texts'
import { wordDiff, type DiffPart } from '@/ui/shared/word-diff'

/** The form's fields, with the labels the form gives them, in its order. */
export const FORM_FIELDS: readonly { readonly field: NewsField; readonly label: string }[] = [
  { field: 'title', label: 'Title' },
  { field: 'author', label: 'Author Name' },
  { field: 'body', label: 'Body' },
]

export interface SavedMeanwhileProps {
  /** The stored version, newer than the one the visitor's text was started from. */
  readonly item: NewsItem
  readonly review: EditReview<NewsField>
  /** The visitor's text as the review found it. */
  readonly mine: NewsDraft
  /** Puts the chosen text into the form's field. */
  readonly choose: (field: NewsField, text: string) => void
}

/**
 * The stored version that is newer than the visitor's text, beside the form: each field both
 * changed shows the two texts side by side, their differences marked, with the choice of which
 * to keep; the other fields show the stored text, and say where the form took it.
 */
export function SavedMeanwhile({ item, review, mine, choose }: SavedMeanwhileProps) {
  const others = FORM_FIELDS.filter(({ field }) => !review.bothChanged.includes(field))
  return (
    <aside className="saved-meanwhile" aria-labelledby="saved-meanwhile-heading">
      <h2 id="saved-meanwhile-heading">{REVIEW_TEXTS.heading}</h2>
      <p>{REVIEW_TEXTS.intro}</p>
      {FORM_FIELDS.filter(({ field }) => review.bothChanged.includes(field)).map(
        ({ field, label }) => (
          <BothChanged
            key={field}
            field={field}
            label={label}
            mine={mine[field]}
            theirs={item[field]}
            choose={(text) => choose(field, text)}
          />
        ),
      )}
      <dl className="saved-meanwhile-fields">
        {others.map(({ field, label }) => (
          <div key={field}>
            <dt>
              {review.theirsTaken.includes(field)
                ? REVIEW_TEXTS.theirsTaken(label)
                : mine[field] === item[field]
                  ? REVIEW_TEXTS.unchanged(label)
                  : REVIEW_TEXTS.yoursOnly(label)}
            </dt>
            <dd className={field === 'body' ? 'saved-meanwhile-body' : undefined} dir="auto">
              {item[field]}
            </dd>
          </div>
        ))}
      </dl>
    </aside>
  )
}

interface BothChangedProps {
  readonly field: NewsField
  readonly label: string
  readonly mine: string
  readonly theirs: string
  readonly choose: (text: string) => void
}

/** One field both changed: the two texts side by side, and the choice between them. */
function BothChanged({ field, label, mine, theirs, choose }: BothChangedProps) {
  const [kept, setKept] = useState<'mine' | 'theirs'>('mine')
  const parts = wordDiff(theirs, mine)
  const pick = (which: 'mine' | 'theirs') => {
    setKept(which)
    choose(which === 'mine' ? mine : theirs)
  }
  return (
    <fieldset className="both-changed">
      <legend>{REVIEW_TEXTS.bothChanged(label)}</legend>
      <div className="side-by-side">
        <Version
          id={`review-${field}-mine`}
          heading={REVIEW_TEXTS.yours}
          parts={parts}
          shows="added"
        />
        <Version
          id={`review-${field}-theirs`}
          heading={REVIEW_TEXTS.theirs}
          parts={parts}
          shows="removed"
        />
      </div>
      <div className="review-choice">
        {(
          [
            ['mine', REVIEW_TEXTS.keepYours],
            ['theirs', REVIEW_TEXTS.useTheirs],
          ] as const
        ).map(([which, label]) => (
          <label key={which}>
            <input
              type="radio"
              name={`review-${field}`}
              checked={kept === which}
              onChange={() => pick(which)}
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

/**
 * One side of a word diff: the words both texts share, and this side's own words marked
 * (`shows`: the words the visitor's text adds, or those it lacks that the stored text has).
 */
function Version({
  id,
  heading,
  parts,
  shows,
}: {
  readonly id: string
  readonly heading: string
  readonly parts: readonly DiffPart[]
  readonly shows: 'added' | 'removed'
}) {
  return (
    <section className="review-version" aria-labelledby={id}>
      <h3 id={id}>{heading}</h3>
      <p dir="auto">
        {parts.map((part, index) => {
          if (part.kind === 'same') return <span key={index}>{part.text}</span>
          if (part.kind !== shows) return null
          return (
            <span key={index}>
              <span className="visually-hidden">differs: </span>
              <mark>{part.text}</mark>
            </span>
          )
        })}
      </p>
    </section>
  )
}
