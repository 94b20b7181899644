/**
 * The 200 body of POST /api/admin/tenants/{tenantId}/simulate, exactly as /work/briefs/simulate-api.md
 * fixes it. Written here until the backend's own type can be imported.
 */

export interface MinuteCounts {
  minuteMs: number;
  allowed: number;
  refused: number;
}

export interface SimulatedOutcome {
  allowed: number;
  refused: number;
  clientsAffected: number;
  perMinute: MinuteCounts[];
}

export interface NewlyRefusedClient {
  keyId: string | null;
  keyName: string | null;
  clientIp: string | null;
  requests: number;
  currentRefused: number;
  candidateRefused: number;
}

export interface SimulationResult {
  tenantId: string;
  fromMs: number;
  toMs: number;
  recordedFromMs: number | null;
  requests: number;
  truncated: boolean;
  current: SimulatedOutcome;
  candidate: SimulatedOutcome;
  newlyRefused: NewlyRefusedClient[];
}
