import { useSelector } from '@xstate/react'
import dayjs from 'dayjs'
import { Link, useParams } from 'react-router-dom'
import { LoadFailed } from '@/ui/shared/load-failed'
import { useAppServices, useProvidedMachine } from '@/ui/app/app-context'
import { provideArticle } from '@/ui/features/article/article.provide'
import { useInspectedMachine } from '@/ui/shared/inspection'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { articleImage } from '@/ui/shared/images'
import { paths } from '@/ui/shared/paths'
import { RemoteImage } from '@/ui/shared/remote-image'

export function ArticlePage() {
  const { id = '' } = useParams()
  return <ArticleScreen key={id} id={id} />
}

function ArticleScreen({ id }: { readonly id: string }) {
  const { store } = useAppServices()
  const [state, send] = useInspectedMachine(useProvidedMachine(provideArticle), { input: { id } })
  // The store may already hold the item (after an edit, with the new values); show it at once.
  const item = useSelector(store, ({ context }) =>
    context.newsItem?._id === id ? context.newsItem : null,
  )
  const deleting = state.matches('deleting')
  usePageTitle(item?.title ?? 'Article')

  if (state.matches('failed')) {
    return (
      <>
        <h1 className="visually-hidden">Article</h1>
        <LoadFailed what="The article" onRetry={() => send({ type: 'article.retry' })} />
      </>
    )
  }
  if (item === null) {
    return state.matches('loading') ? (
      <p role="status" className="visually-hidden">
        Loading the article…
      </p>
    ) : null
  }
  const image = articleImage(item._id)
  return (
    <article className="article" aria-labelledby="article-title">
      <h1 id="article-title">{item.title}</h1>
      <RemoteImage className="article-image" {...image} alt="" fetchPriority="high" />
      <p className="article-byline">
        Created By: {item.author} | {dayjs(item.createdAt).format('YYYY/MM/DD')}
      </p>
      <div className="article-body">{item.body}</div>
      <div className="article-actions">
        <Link className="button" to={paths.editNews(item._id)}>
          Edit
        </Link>
        <Link className="button" to={paths.history(item._id)}>
          History
        </Link>
        <button
          type="button"
          className="button button-danger"
          onClick={() => send({ type: 'article.delete', revision: item.revision })}
          disabled={deleting}
          aria-busy={deleting}
        >
          Delete
        </button>
      </div>
    </article>
  )
}
