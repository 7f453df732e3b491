import type { NewsDraft } from '@/domain/news-item.entity'
import type { NewsRepository } from '@/domain/ports/news-repository.port'

/** Invented news of varied lengths, so that a first start shows a full grid. */
export const DEMO_POSTS: readonly NewsDraft[] = [
  {
    title: 'Harbour reopens after winter storm repairs',
    author: 'Maya Okafor',
    body:
      'The old harbour reopened on Monday after six weeks of repairs to the storm-damaged sea wall.\n\n' +
      'Fishing crews were the first back in, and the ferry to the islands resumes its summer timetable next week.',
  },
  {
    title: 'City library extends opening hours',
    author: 'Tomás Lindqvist',
    body: 'From next month the central library stays open until 9 pm on weekdays, a trial the council will review in the autumn.',
  },
  {
    title: 'Local bakery wins national sourdough prize',
    author: 'Priya Raman',
    body:
      'A two-person bakery on Mill Street has taken first place in the national sourdough awards.\n\n' +
      '"We still use the starter my grandmother gave us," said co-owner Ana Ferreira. ' +
      'Queues formed before dawn on Saturday, and the loaves sold out by nine.',
  },
  {
    title: 'Night trains return to the northern line',
    author: 'Jonas Weber',
    body: 'Sleeper services between the capital and the northern coast restart in May, with two departures a week at first.',
  },
  {
    title: 'Volunteers plant 4,000 trees along the river',
    author: 'Aisha Bello',
    body:
      'More than 300 volunteers spent the weekend planting native oak, alder and willow along a two-kilometre stretch of the riverbank.\n\n' +
      'The project aims to shade the water, cool it for fish in hot summers, and slow floods after heavy rain. ' +
      'Organisers plan a second planting day in November and are asking for spades, gloves and soup.',
  },
  {
    title: 'School robotics team heads to the world finals',
    author: 'Chen Wei',
    body: 'Five students from Eastside High built a robot that sorts recycling by colour and weight. It earned them a place at the world finals in June.',
  },
  {
    title: 'Farmers market moves to the station square',
    author: 'Lucía Moreno',
    body: 'The Saturday market moves to the square by the station from the first of the month, with room for twenty more stalls.',
  },
  {
    title: 'Observatory opens its telescope to the public',
    author: 'Erik Johansson',
    body:
      'On clear Friday evenings the hilltop observatory now lets visitors look through its 60 cm telescope.\n\n' +
      'Booking is free but places are limited to 40 a night. Warm clothes are recommended: the dome is not heated.',
  },
  {
    title: 'Cycle lane network passes 100 kilometres',
    author: 'Grace Mensah',
    body: 'With the bridge link finished this week, the city’s protected cycle lanes now run for more than 100 km.',
  },
]

/**
 * Adds DEMO_POSTS when `enabled` (DEMO_POSTS is not 0) and the repository holds no post.
 * Give it the journal (the server's NewsRepository), so that each demo post starts its
 * history like any other. Returns how many it added. Repository failures reject as the port's do.
 */
export async function addDemoPostsIfEmpty(
  repository: NewsRepository,
  enabled: boolean,
): Promise<number> {
  if (!enabled) return 0
  const { items } = await repository.list({ limit: 1 })
  if (items.length > 0) return 0
  for (const draft of DEMO_POSTS) await repository.create(draft)
  return DEMO_POSTS.length
}
