/**
 * A small line of a series (requests per hour, say) for a table cell: an image with a summary for
 * screen readers, drawn in one colour of the chart palette. No axes: the figure beside it is the
 * total, the line only shows the shape.
 */
const WIDTH = 96;
const HEIGHT = 24;

export function sparkPoints(values: readonly number[]): string {
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? WIDTH / (values.length - 1) : 0;
  return values
    .map((v, i) => `${(i * step).toFixed(1)},${(HEIGHT - 1 - (v / max) * (HEIGHT - 2)).toFixed(1)}`)
    .join(" ");
}

export function Sparkline({ values, colour, label }: { values: readonly number[]; colour: string; label: string }) {
  return (
    <svg
      className="sparkline"
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={label}
      data-testid="sparkline"
    >
      <polyline points={sparkPoints(values)} fill="none" stroke={colour} strokeWidth={1.5} strokeLinejoin="round" />
    </svg>
  );
}
