import {
  getMetricsFromIterator,
  type PromData,
  type PromHistogramData,
  type PromMetric,
  type PromMetrics,
} from 'prom2javascript'

type Labels = Readonly<Record<string, string>>

/** A scrape of GET /metrics, parsed by a Prometheus text parser, not by the server's library. */
export class Scrape {
  private constructor(private readonly metrics: PromMetrics) {}

  static async of(text: string): Promise<Scrape> {
    // prom2javascript reads no NaN, which the format allows (Prometheus reads it in any case,
    // as Go's ParseFloat does); prom-client writes one, as `Nan`, for the event-loop delay
    // before its first sample. Those samples are left out.
    const lines = text.split('\n').filter((line) => !/ nan$/i.test(line))
    return new Scrape(await getMetricsFromIterator(lines[Symbol.iterator]()))
  }

  family(name: string): PromMetric {
    const family = this.metrics[name]
    if (family === undefined) throw new Error(`no metric ${name} in the scrape`)
    return family
  }

  /** The route labels of a family's series. */
  labels(name: string): Labels[] {
    return this.family(name).data.map((series) => series.labels)
  }

  /** A counter's or gauge's value, 0 when the labelled series does not exist yet. */
  value(name: string, labels: Labels = {}): number {
    return (this.series(name, labels) as PromData | undefined)?.value ?? 0
  }

  /** A histogram's count of observations, 0 when the labelled series does not exist yet. */
  count(name: string, labels: Labels = {}): number {
    return (this.series(name, labels) as PromHistogramData | undefined)?.count ?? 0
  }

  /** A histogram's sum of observations, 0 when the labelled series does not exist yet. */
  sum(name: string, labels: Labels = {}): number {
    return (this.series(name, labels) as PromHistogramData | undefined)?.sum ?? 0
  }

  /** The first series of `name` whose labels include `labels`. */
  private series(name: string, labels: Labels): PromData | PromHistogramData | undefined {
    const data = this.family(name).data as (PromData | PromHistogramData)[]
    return data.find((series) =>
      Object.entries(labels).every(([key, value]) => series.labels[key] === value),
    )
  }
}
