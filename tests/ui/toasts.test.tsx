// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { createMemoryApp } from '../support/memory-app'
import { fillFields, findToast, newsItem, renderApp } from './support/render-app'

const NOT_AVAILABLE = 'sorry, this page is not available'
const message = { Name: 'Ada', 'Email Address': 'ada@example.org', 'Your Message': 'Hello' }

/** jsdom runs no CSS animations; these stand for the browser's end of an animation. */
function endAnimation(element: Element) {
  fireEvent.animationEnd(element)
}

function progressBarOf(toast: HTMLElement): HTMLElement {
  return within(toast).getByRole('progressbar', { hidden: true })
}

async function showNotAvailableToast() {
  const rendered = renderApp({ path: '/nope/deeper', seed: [newsItem()] })
  const toast = await findToast(NOT_AVAILABLE)
  return { ...rendered, toast }
}

describe('toasts', () => {
  it('shows toasts at the top right, in the dark theme', async () => {
    const { toast } = await showNotAvailableToast()

    const container = toast.closest('.Toastify__toast-container')
    expect(container).toHaveClass('Toastify__toast-container--top-right')
    expect(toast).toHaveClass('Toastify__toast-theme--dark')
    expect(within(toast).getByRole('button', { name: 'close' })).toHaveClass(
      'Toastify__close-button--dark',
    )
  })

  it('removes a toast when its close button is pressed', async () => {
    const { user, toast } = await showNotAvailableToast()

    await user.click(within(toast).getByRole('button', { name: 'close' }))
    endAnimation(toast)

    await waitFor(() => expect(screen.queryByText(NOT_AVAILABLE)).not.toBeInTheDocument())
  })

  it('closes a toast on its own once its 5000 ms countdown has run', async () => {
    const { toast } = await showNotAvailableToast()
    const countdown = progressBarOf(toast)
    expect(countdown.style.animationDuration).toBe('5000ms')

    endAnimation(toast) // the toast has slid in: the countdown starts
    await waitFor(() => expect(countdown.style.animationPlayState).toBe('running'))
    endAnimation(countdown) // 5000 ms later
    endAnimation(toast) // the toast has slid out

    await waitFor(() => expect(screen.queryByText(NOT_AVAILABLE)).not.toBeInTheDocument())
  })

  it('pauses the countdown while the pointer is over the toast', async () => {
    const { user, toast } = await showNotAvailableToast()
    const countdown = progressBarOf(toast)
    endAnimation(toast)
    await waitFor(() => expect(countdown.style.animationPlayState).toBe('running'))

    await user.hover(toast)
    await waitFor(() => expect(countdown.style.animationPlayState).toBe('paused'))

    await user.unhover(toast)
    await waitFor(() => expect(countdown.style.animationPlayState).toBe('running'))
  })

  it('removes a toast dragged sideways with the mouse', async () => {
    const { toast } = await showNotAvailableToast()

    fireEvent.pointerDown(toast, { pointerType: 'mouse', clientX: 20, clientY: 20 })
    fireEvent.pointerMove(document, { pointerType: 'mouse', clientX: 260, clientY: 20 })
    expect(toast.style.transform).toContain('240px')
    fireEvent.pointerUp(document, { pointerType: 'mouse', clientX: 260, clientY: 20 })

    await waitFor(() => expect(screen.queryByText(NOT_AVAILABLE)).not.toBeInTheDocument())
  })

  it('shows a message asked for again while it is on screen only once', async () => {
    const app = createMemoryApp()
    app.mailer.faults.failOn('send')
    const { user } = renderApp({ app, path: '/contact' })
    await fillFields(user, message)
    const send = vi.spyOn(app.mailer, 'send')

    await user.click(screen.getByRole('button', { name: 'Submit' }))
    await findToast('something went wrong, please try again later')
    await user.click(screen.getByRole('button', { name: 'Submit' }))
    await waitFor(() => expect(send).toHaveBeenCalledTimes(2))
    // A later toast shows that the second request for the message has been handled.
    app.mailer.faults.recover()
    await waitFor(() => expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled())
    await user.click(screen.getByRole('button', { name: 'Submit' }))
    await findToast('successfully sent the email')

    expect(screen.getAllByText('something went wrong, please try again later')).toHaveLength(1)
  })
})

describe('toasts with a button', () => {
  it('takes the focus to its message after the Delete, just before its button, and has no time limit', async () => {
    const { user } = renderApp({ path: '/news/harbour-1', seed: [newsItem()] })
    await user.click(await screen.findByRole('button', { name: 'Delete' }))
    const toast = await findToast('successfully deleted news post')

    await waitFor(() =>
      expect(within(toast).getByText('successfully deleted news post')).toHaveFocus(),
    )
    // The next Tab stop (tests/e2e/keyboard-order.spec.ts presses it in Chromium).
    expect(within(toast).getByRole('button', { name: 'Undo' })).toBeInTheDocument()
    // No countdown runs: the toast stays until Undo or its close button.
    expect(within(toast).queryByRole('progressbar')).toBeNull()
  })

  it('closes the toast when its button is pressed', async () => {
    const { user } = renderApp({ path: '/news/harbour-1', seed: [newsItem()] })
    await user.click(await screen.findByRole('button', { name: 'Delete' }))
    const toast = await findToast('successfully deleted news post')

    await user.click(within(toast).getByRole('button', { name: 'Undo' }))
    endAnimation(toast)

    await waitFor(() =>
      expect(screen.queryByText('successfully deleted news post')).not.toBeInTheDocument(),
    )
  })
})
