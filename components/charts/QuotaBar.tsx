/**
 * The one quota-bar convention of the dashboard: the filled part is what is LEFT, in the neutral
 * accent colour; an exhausted quota is an empty bar with "0 of N left" (refusals alone are red,
 * and they are marked where they are shown, not by the bar). Always with the figure as text.
 */
export function QuotaBar({ remaining, capacity, label }: { remaining: number; capacity: number; label: string }) {
  const left = Math.max(0, Math.min(remaining, capacity));
  const share = capacity > 0 ? left / capacity : 0;
  return (
    <span className="quota">
      <span
        className="quota-bar"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={capacity}
        aria-valuenow={left}
        aria-valuetext={`${left.toLocaleString("en")} of ${capacity.toLocaleString("en")} left`}
      >
        <span style={{ width: `${share * 100}%` }} />
      </span>
      <span>
        {left.toLocaleString("en")} of {capacity.toLocaleString("en")} left
      </span>
    </span>
  );
}
