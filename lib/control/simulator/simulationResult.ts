/**
 * The answer of POST /api/admin/tenants/{tenantId}/simulate (fixed: the dashboard is built on it;
 * see ../shared/CONTRACT.md and docs/simulator.md).
 */

export interface MinuteFigures {
  /** Epoch ms of the minute's start. */
  minuteMs: number;
  allowed: number;
  refused: number;
}

export interface SideFigures {
  allowed: number;
  refused: number;
  /** Distinct clients with at least one refused request. */
  clientsAffected: number;
  /** Every minute of the range, zeros included. */
  perMinute: MinuteFigures[];
}

/** A client the candidate refuses more often than the current rules do. */
export interface NewlyRefusedClient {
  keyId: string | null;
  keyName: string | null;
  /** The client's IP when it is known by its IP only (requests without an API key), else null. */
  clientIp: string | null;
  requests: number;
  currentRefused: number;
  candidateRefused: number;
}

export interface SimulationResult {
  tenantId: string;
  /** The range actually replayed (after clipping to what is recorded, and to the replay cap). */
  fromMs: number;
  toMs: number;
  /** Oldest recorded request still kept for the tenant; null when nothing is recorded. */
  recordedFromMs: number | null;
  requests: number;
  /** The range held more requests than the replay cap; only the first ones were replayed. */
  truncated: boolean;
  /**
   * Rules (current or candidate) left out of both replays: concurrency rules, whose slots depend on
   * how long each request took, header/query rules, whose values are request attributes, and rules
   * counted by response (chargeOn), charged by a status; the trace records none of these. Their
   * verdicts are not simulated.
   */
  notSimulated: { rule: string; reason: string }[];
  current: SideFigures;
  candidate: SideFigures;
  newlyRefused: NewlyRefusedClient[];
}
