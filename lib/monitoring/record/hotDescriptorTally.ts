/**
 * The hot descriptors of one flush interval (lib/monitoring/record/decisionBatch.ts): for each
 * ShouldRateLimit call of Envoy's rate limit service, each descriptor rule's subject (the values it
 * counts by, `Subject.attributes[descriptorSlot]`) in that minute, with the calls that met it and
 * the calls that rule refused (enforce only; a shadow rule's would-refuse is not a refusal).
 *
 * Contract
 * - Members are JSON `[tenantId, ref, value]` (values are any text); subjects over
 *   DESCRIPTOR_SUBJECT_SHOWN characters and refs that could not be part of a key are not kept.
 * - Bounded: past `max` (minute, member) entries new ones are not kept; `add` answers how many it
 *   left out, for the batch's overflow count.
 */
import type { Decision } from "../../limiter/types";
import { DESCRIPTOR_SUBJECT_SHOWN } from "./limitedSubjects";
import { SAFE_PART } from "./monitoringKeys";

/** A descriptor rule's subject in one minute: its calls and refusals. */
export interface DescriptorStats {
  tenantId: string;
  member: string;
  minute: number;
  requests: number;
  refused: number;
}

export class HotDescriptorTally {
  readonly stats = new Map<string, DescriptorStats>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.stats.size;
  }

  add(tenantId: string, decision: Decision, attributes: Readonly<Record<string, string>>, minute: number): number {
    let left = 0;
    for (const r of decision.results) {
      if (r.rule.scope !== "descriptor" || !r.rule.descriptorSlot || !SAFE_PART.test(r.rule.ref)) continue;
      const value = attributes[r.rule.descriptorSlot];
      if (value === undefined || value.length > DESCRIPTOR_SUBJECT_SHOWN) continue;
      const member = JSON.stringify([tenantId, r.rule.ref, value]);
      const id = `${minute}\n${member}`;
      let stats = this.stats.get(id);
      if (!stats) {
        if (this.stats.size >= this.max) {
          left++;
          continue;
        }
        this.stats.set(id, (stats = { tenantId, member, minute, requests: 0, refused: 0 }));
      }
      stats.requests++;
      if (!r.allowed && r.rule.mode === "enforce") stats.refused++;
    }
    return left;
  }
}
