/**
 * One series of a server's Prometheus metrics (GET /api/metrics): the value of the line that starts
 * with `series` (name and labels exactly as exposed, e.g. `sluice_x_total{event="taken"}`), 0 when
 * the series has not been written yet.
 */
export async function metricValue(serverUrl: string, series: string, adminToken?: string): Promise<number> {
  const headers: Record<string, string> = adminToken ? { authorization: `Bearer ${adminToken}` } : {};
  const text = await (await fetch(`${serverUrl}/api/metrics`, { headers })).text();
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line ? Number(line.split(" ").at(-1)) : 0;
}
