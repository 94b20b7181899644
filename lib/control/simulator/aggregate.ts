/**
 * Turns the outcomes of the two replays (current and candidate rules) into the figures of the
 * simulate API. Pure: no I/O, no clock.
 *
 * - A client is the API key when the request had one, else the client IP.
 * - `perMinute` covers every minute that [fromMs, toMs) touches, zeros included; a request outside
 *   the range (the caller never passes one) is counted in the totals but in no minute.
 * - `newlyRefused`: clients the candidate refuses more often than the current rules, most newly
 *   refused requests first (then most candidate refusals, then by client), at most `maxClients`.
 *   Key names are filled in by the caller (they live in Postgres).
 */
import { MINUTE_MS } from "../../monitoring/record/monitoringKeys";
import type { NewlyRefusedClient, SideFigures } from "./simulationResult";

/** What aggregation needs of a replayed request. */
export interface ReplayedRequest {
  atMs: number;
  keyId: string | null;
  ip: string | null;
}

export const MAX_NEWLY_REFUSED = 100;

export interface Aggregate {
  current: SideFigures;
  candidate: SideFigures;
  newlyRefused: NewlyRefusedClient[];
}

interface ClientTally {
  keyId: string | null;
  ip: string | null;
  requests: number;
  currentRefused: number;
  candidateRefused: number;
}

function emptySide(firstMinute: number, minutes: number): SideFigures {
  return {
    allowed: 0,
    refused: 0,
    clientsAffected: 0,
    perMinute: Array.from({ length: minutes }, (_, i) => ({
      minuteMs: (firstMinute + i) * MINUTE_MS,
      allowed: 0,
      refused: 0,
    })),
  };
}

function count(side: SideFigures, minuteIndex: number, refused: boolean): void {
  const minute = side.perMinute[minuteIndex];
  if (refused) {
    side.refused++;
    if (minute) minute.refused++;
  } else {
    side.allowed++;
    if (minute) minute.allowed++;
  }
}

/** `currentRefused[i]` / `candidateRefused[i]`: 1 when that replay refused request i. */
export function aggregate(
  range: { fromMs: number; toMs: number },
  requests: readonly ReplayedRequest[],
  currentRefused: Uint8Array,
  candidateRefused: Uint8Array,
  maxClients = MAX_NEWLY_REFUSED,
): Aggregate {
  const firstMinute = Math.floor(range.fromMs / MINUTE_MS);
  const minutes = Math.max(0, Math.floor((range.toMs - 1) / MINUTE_MS) - firstMinute + 1);
  const current = emptySide(firstMinute, minutes);
  const candidate = emptySide(firstMinute, minutes);
  const clients = new Map<string, ClientTally>();

  requests.forEach((request, i) => {
    const minute =
      request.atMs >= range.fromMs && request.atMs < range.toMs
        ? Math.floor(request.atMs / MINUTE_MS) - firstMinute
        : -1;
    const nowRefused = currentRefused[i] === 1;
    const thenRefused = candidateRefused[i] === 1;
    count(current, minute, nowRefused);
    count(candidate, minute, thenRefused);
    const id = request.keyId !== null ? `k${request.keyId}` : `i${request.ip ?? ""}`;
    let client = clients.get(id);
    if (!client)
      clients.set(
        id,
        (client = {
          keyId: request.keyId,
          ip: request.keyId !== null ? null : request.ip,
          requests: 0,
          currentRefused: 0,
          candidateRefused: 0,
        }),
      );
    client.requests++;
    if (nowRefused) client.currentRefused++;
    if (thenRefused) client.candidateRefused++;
  });

  const newly: (ClientTally & { id: string })[] = [];
  for (const [id, client] of clients) {
    if (client.currentRefused > 0) current.clientsAffected++;
    if (client.candidateRefused > 0) candidate.clientsAffected++;
    if (client.candidateRefused > client.currentRefused) newly.push({ id, ...client });
  }
  newly.sort(
    (a, b) =>
      b.candidateRefused - b.currentRefused - (a.candidateRefused - a.currentRefused) ||
      b.candidateRefused - a.candidateRefused ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return {
    current,
    candidate,
    newlyRefused: newly.slice(0, maxClients).map((c) => ({
      keyId: c.keyId,
      keyName: null,
      clientIp: c.ip,
      requests: c.requests,
      currentRefused: c.currentRefused,
      candidateRefused: c.candidateRefused,
    })),
  };
}
