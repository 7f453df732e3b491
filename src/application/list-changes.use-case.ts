import { validationFailed } from '@/domain/domain-error'
import { INVALID_EDITOR_MESSAGE, isEditor } from '@/domain/editor'
import type { ChangePage, ChangesQuery, NewsRepository } from '@/domain/ports/news-repository.port'
import { attempt, fail, type Result } from '@/domain/result'
import { pageQuery } from '@/application/page-query'

/**
 * The recent changes: every change across the site, newest first, or one editor's; a name that
 * no editor can have is ValidationFailed on `editor`, before any read.
 */
export class ListChanges {
  constructor(private readonly news: NewsRepository) {}

  async execute(query: ChangesQuery = {}): Promise<Result<ChangePage>> {
    if (query.editor !== undefined && !isEditor(query.editor)) {
      return fail(validationFailed({ editor: INVALID_EDITOR_MESSAGE }))
    }
    return attempt(() => this.news.changes(pageQuery(query)))
  }
}
