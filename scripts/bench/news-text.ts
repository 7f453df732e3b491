/**
 * Text for benchmark posts, so that searching them is like searching news: words drawn with Zipf's
 * law (the n-th commonest word appears about 1/n as often as the commonest) from a vocabulary of
 * about 30,000 words: real English words at the top, accents among them, then made-up names,
 * each rare. So 'the' is in nearly every post, 'council' in a few percent, a name in a few dozen.
 * Deterministic: the same index always gives the same post.
 */

/** The commonest words, commonest first. */
const COMMON = (
  'the of and to in a city is for on that with new was council by at from people year ' +
  'said will market has river school bridge harbour police after local water night team ' +
  'train station road week library mayor plan music festival storm park museum hospital ' +
  'election budget street village weather match season report court housing winter ' +
  'summer spring autumn art theatre film book garden farm forest coast island mountain ' +
  'lake ferry airport bus tram bike cafe café restaurant bakery shop factory office ' +
  'workers strike union students teachers doctors nurses children families visitors ' +
  'tourists residents neighbours volunteers fire flood snow rain wind sun heat energy ' +
  'power solar electric tax price rent jobs growth trade export zürich münchen são ' +
  'paulo málaga kraków été naïve résumé fiancée jalapeño smörgåsbord crème brûlée über ' +
  'façade'
).split(' ')

const SYLLABLES = (
  'ka lo mi ren dor vel tis bru an sel mor qui zan pe rho ga nu ster lin ov ech ira bo ' +
  'fen tal wy dra cu mes hol jur ney'
).split(' ')

const VOCABULARY_SIZE = 30_000

/** The made-up name of rank `rank` (past the common words): three syllables, each name unique. */
function madeUpWord(rank: number): string {
  const n = rank - COMMON.length
  const base = SYLLABLES.length
  return `${SYLLABLES[n % base]}${SYLLABLES[Math.floor(n / base) % base]}${SYLLABLES[Math.floor(n / base / base) % base]}`
}

/** The word of a frequency rank, 0 being the commonest. */
export function wordOfRank(rank: number): string {
  return rank < COMMON.length ? (COMMON[rank] ?? 'the') : madeUpWord(rank)
}

// Zipf weights 1/(rank + 1), summed, for drawing a rank by binary search.
const CUMULATIVE = (() => {
  const sums = new Float64Array(VOCABULARY_SIZE)
  let sum = 0
  for (let rank = 0; rank < VOCABULARY_SIZE; rank += 1) {
    sum += 1 / (rank + 1)
    sums[rank] = sum
  }
  return sums
})()
const TOTAL = CUMULATIVE[VOCABULARY_SIZE - 1] ?? 1

/** A small, fast, seeded generator (mulberry32). */
function generator(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function drawRank(random: () => number): number {
  const target = random() * TOTAL
  let low = 0
  let high = VOCABULARY_SIZE - 1
  while (low < high) {
    const middle = (low + high) >> 1
    if ((CUMULATIVE[middle] ?? TOTAL) < target) low = middle + 1
    else high = middle
  }
  return low
}

/** `count` words, joined by spaces, cut at the last whole word within `maxLength`. */
function words(random: () => number, count: number, maxLength: number): string {
  let text = ''
  for (let index = 0; index < count; index += 1) {
    const word = wordOfRank(drawRank(random))
    if (text.length + word.length + 1 > maxLength) break
    text = text.length === 0 ? word : `${text} ${word}`
  }
  return text
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** The title and body of the benchmark post seeded `index`-th, within the domain's limits. */
export function newsText(index: number): { readonly title: string; readonly body: string } {
  const random = generator(index + 1)
  const title = capitalised(words(random, 4 + Math.floor(random() * 7), 100))
  const body = `${capitalised(words(random, 30 + Math.floor(random() * 50), 499))}.`
  return { title, body }
}
