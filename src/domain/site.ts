/** The site's name and what it is: the tab, link previews, the feed and the manifest say it. */
export const SITE = {
  name: 'NewsWire',
  description: 'Discover the world through our news',
} as const
