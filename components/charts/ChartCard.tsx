/** The frame every chart and table of the monitoring views sits in: title, note, body. */
import { useId, type ReactNode } from "react";

export function ChartCard({
  title,
  hint,
  actions,
  children,
  id,
}: {
  title: string;
  hint?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  id?: string;
}) {
  const labelId = useId();
  return (
    <section className="card" aria-labelledby={labelId} id={id}>
      <div className="card-header">
        <h2 id={labelId}>{title}</h2>
        {actions}
      </div>
      {hint ? <p className="hint">{hint}</p> : null}
      {children}
    </section>
  );
}
