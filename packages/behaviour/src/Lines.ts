/** Every line of the client the behavioural suite runs against. */
import type { Line } from "./Line.js"
import * as Effect3 from "./lines/Effect3.js"
import * as Effect4 from "./lines/Effect4.js"

export const all: ReadonlyArray<Line> = [Effect3.line, Effect4.line]
