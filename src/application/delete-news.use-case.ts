import { notFound, toDomainError } from '@/domain/domain-error'
import { isNewsId } from '@/domain/news-id'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { fail, ok, type Result } from '@/domain/result'

export class DeleteNews {
  constructor(private readonly news: NewsRepository) {}

  async execute(id: string): Promise<Result<void>> {
    if (!isNewsId(id)) return fail(notFound())
    try {
      return ok(await this.news.remove(id))
    } catch (thrown) {
      return fail(toDomainError(thrown))
    }
  }
}
