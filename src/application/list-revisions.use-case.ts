import { notFound } from '@/domain/domain-error'
import { isNewsId } from '@/domain/news-id'
import type {
  NewsPageQuery,
  NewsRepository,
  RevisionPage,
} from '@/domain/ports/news-repository.port'
import { attempt, fail, type Result } from '@/domain/result'
import { historyPageQuery } from '@/application/page-query'

/** A page of a post's history, newest first; it also works for a post in the trash. */
export class ListRevisions {
  constructor(private readonly news: NewsRepository) {}

  async execute(id: string, query: NewsPageQuery = {}): Promise<Result<RevisionPage>> {
    if (!isNewsId(id)) return fail(notFound())
    return attempt(() => this.news.revisions(id, historyPageQuery(query)))
  }
}
