import { Fragment, type ReactNode } from 'react'
import { excerptAround, highlightParts } from '@/domain/rules/search-highlight'

export interface HighlightedTextProps {
  readonly text: string
  /** A search's folded words (SearchQuery.terms); none marks nothing. */
  readonly terms?: readonly string[]
}

/**
 * A text with the words a search matched in `<mark>`: React writes each part as text, so a
 * post's markup stays text, and the parts together are the text as it was.
 */
export function HighlightedText({ text, terms }: HighlightedTextProps) {
  if (terms === undefined || terms.length === 0) return text
  return highlightParts(text, terms).map((part, index) => (
    <Fragment key={index}>{part.matched ? <mark>{part.text}</mark> : part.text}</Fragment>
  ))
}

/** How a search result shows a post's text (see NewsCard's `highlight`). */
export interface CardHighlight {
  /** A short text (an author, a title) with the matched words marked. */
  readonly text: (text: string) => ReactNode
  /** The excerpt of a body where the matched words are, with them marked. */
  readonly excerpt: (body: string) => ReactNode
}

/** The card highlight for a search's folded words (SearchQuery.terms). */
export function cardHighlight(terms: readonly string[]): CardHighlight {
  return {
    text: (text) => <HighlightedText text={text} terms={terms} />,
    excerpt: (body) => <HighlightedText text={excerptAround(body, terms)} terms={terms} />,
  }
}
