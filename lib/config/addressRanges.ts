/**
 * SLUICE_ALERT_ALLOWED_ADDRESSES parsed: the CIDR ranges alert webhooks may reach although private,
 * loopback or reserved. Here, below everything, so the configuration can check them at start-up;
 * the guard that uses them is lib/control/alerts/webhookAddress.ts.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses SLUICE_ALERT_ALLOWED_ADDRESSES; throws with the bad entry. */
export function parseAllowedRanges(text: string): AddressRange[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      try {
        return ipaddr.parseCIDR(part.includes("/") ? part : `${part}/${isIP(part) === 6 ? 128 : 32}`);
      } catch {
        throw new Error(`SLUICE_ALERT_ALLOWED_ADDRESSES: "${part}" is not an address or CIDR range`);
      }
    });
}
