/** Every line of the client the behavioural suite runs against, and every transport of each. */
import type { Line, Transport } from "./Line.js"
import * as Effect3 from "./lines/Effect3.js"
import * as Effect4 from "./lines/Effect4.js"

export const all: ReadonlyArray<Line> = [Effect3.line, Effect4.line]

/** A line over one of its transports, named for both (`effect3 over undici`). */
export interface Carrier {
  readonly name: string
  readonly line: Line
  readonly transport: Transport
}

/** Every line over every transport it runs on here: what the suite's transport tests run over. */
export const carriers: ReadonlyArray<Carrier> = all.flatMap((line) =>
  line.transports.map((transport) => ({ name: `${line.name} over ${transport}`, line, transport }))
)
