/** The image service's placeholders; a local picture stands in when the service cannot be reached. */
export const CARD_IMAGE = {
  src: 'https://picsum.photos/seed/newswire/800/250',
  width: 800,
  height: 250,
} as const

export function articleImage(id: string) {
  return {
    src: `https://picsum.photos/seed/${encodeURIComponent(id)}/1920/1080`,
    width: 1920,
    height: 1080,
  } as const
}
