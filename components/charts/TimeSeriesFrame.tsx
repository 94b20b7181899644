"use client";
/**
 * The frame every live time-series chart shares (traffic, 429 rate, a caller's history): the image
 * box with its summary as the accessible name, the grid, the time axis, a value axis, the partial
 * last bucket shaded, the configuration changes as dashed vertical lines, and the tooltip. The
 * series are the children (Recharts elements), so each chart says only what it draws; the pieces
 * two charts draw alike (the stacked allowed and refused requests, a dashed refusal line) are here
 * too. Counts of the partial bucket, the markers and the rows are the chart's: the frame only draws.
 */
import type { ReactNode } from "react";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  Tooltip,
  XAxis,
  YAxis,
  type YAxisProps,
} from "recharts";
import { changeLines } from "./ChangeLines";
import type { ChangeMarker } from "./changeMarkers";
import type { Palette } from "./chartPalette";
import { ChartTooltip } from "./ChartTooltip";
import { timeAxis, type PartialBucket } from "./timeSeries";

interface FrameProps {
  /** The chart's accessible name: its title, range and summary. */
  label: string;
  testId?: string;
  height?: number;
  rows: readonly object[];
  fromMs: number;
  toMs: number;
  partial: PartialBucket | null;
  markers: readonly ChangeMarker[];
  palette: Palette;
  /** The value axis beyond its width (tick format, unit, domain, decimals). */
  yAxis: Omit<YAxisProps, "ref">;
  /** A value as the tooltip shows it. */
  format: (value: number) => string;
  children: ReactNode;
}

export function TimeSeriesFrame(props: FrameProps) {
  const { label, testId, height = 260, rows, fromMs, toMs, partial, markers, palette, yAxis, format } = props;
  return (
    <div className="chart-frame" role="img" aria-label={label} data-testid={testId}>
      <ComposedChart
        responsive
        style={{ width: "100%", height }}
        data={rows as object[]}
        margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
      >
        <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
        <XAxis {...timeAxis(fromMs, toMs)} />
        <YAxis width={48} {...yAxis} />
        {partial ? (
          <ReferenceArea
            x1={partial.t}
            x2={toMs}
            fill={palette.partial}
            fillOpacity={0.12}
            ifOverflow="hidden"
            label={{ value: "partial", position: "insideTopRight", fill: palette.partial, fontSize: 11 }}
          />
        ) : null}
        {changeLines(markers, palette.partial)}
        <Tooltip
          position={{ y: 0 }}
          wrapperStyle={{ pointerEvents: "none", zIndex: 1 }}
          isAnimationActive={false}
          content={(tooltip) => <ChartTooltip {...tooltip} partial={partial} format={format} />}
        />
        {props.children}
      </ComposedChart>
    </div>
  );
}

/** The stacked requests, bottom up: the rows' `allowed` and `refused` columns. */
const REQUESTS = [
  { key: "allowed", label: "Allowed", fillOpacity: 0.3 },
  { key: "refused", label: "Refused (429)", fillOpacity: 0.5 },
] as const;

/** The toggles of the stacked requests (SeriesToggles' entries). */
export function requestSeries(palette: Palette) {
  return REQUESTS.map(({ key, label }) => ({ key, label, colour: palette[key] }));
}

/** Allowed and refused requests, stacked. */
export function requestAreas(palette: Palette, hidden: ReadonlySet<string>) {
  return REQUESTS.map(({ key, label, fillOpacity }) => (
    <Area
      key={key}
      type="stepAfter"
      dataKey={key}
      name={label}
      hide={hidden.has(key)}
      stackId="requests"
      stroke={palette[key]}
      fill={palette[key]}
      fillOpacity={fillOpacity}
      isAnimationActive={false}
    />
  ));
}

/** Requests a rule refused (or a shadow rule would have), a dashed step line over the areas. */
export function refusalLine({
  dataKey,
  name,
  colour,
  hide,
}: {
  dataKey: string;
  name: string;
  colour: string;
  hide: boolean;
}) {
  return (
    <Line
      key={dataKey}
      type="stepAfter"
      dataKey={dataKey}
      name={name}
      hide={hide}
      stroke={colour}
      strokeDasharray="6 4"
      strokeWidth={2}
      dot={false}
      isAnimationActive={false}
    />
  );
}
