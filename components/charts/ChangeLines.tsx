/**
 * Change markers (changeMarkers.ts) as Recharts reference lines: one dashed vertical line per
 * configuration change, its sentence as the line's title. A function, not a component, so the
 * lines are the chart's own children.
 */
import { ReferenceLine } from "recharts";
import type { ChangeMarker } from "./changeMarkers";

export function changeLines(markers: readonly ChangeMarker[], colour: string) {
  return markers.map((marker) => (
    <ReferenceLine
      key={`change-${marker.id}`}
      x={marker.t}
      className="change-marker"
      stroke={colour}
      strokeDasharray="2 3"
      strokeWidth={1.5}
      ifOverflow="hidden"
      label={{ value: "✎", position: "insideTopLeft", fill: colour, fontSize: 11 }}
    >
      <title>{marker.what}</title>
    </ReferenceLine>
  ));
}
