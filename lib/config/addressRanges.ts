/**
 * Address ranges read from the environment: SLUICE_ALERT_ALLOWED_ADDRESSES (the CIDR ranges alert
 * webhooks may reach although private, loopback or reserved; the guard that uses them is
 * lib/control/alerts/webhookAddress.ts) and the list form of SLUICE_TRUST_PROXY (lib/config/trustProxy.ts).
 * Here, below everything, so the configuration can check them at start-up.
 *
 * An entry is an IPv4 address (dotted quad), an IPv6 address, or either with `/bits`; a bare address
 * is its own /32 or /128. Anything else throws, naming the variable and the entry.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses a comma-separated list of addresses and CIDR ranges (empty entries skipped); throws with the bad entry. */
export function parseAddressRanges(text: string, variable: string): AddressRange[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      const [address = "", bits] = part.split("/", 2);
      // node:net's isIP is strict (no `127.1`, no octal or hex parts), ipaddr.js is not.
      const family = isIP(address);
      try {
        if (family === 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) throw new Error("not an address");
        return ipaddr.parseCIDR(`${address}/${bits ?? (family === 6 ? 128 : 32)}`);
      } catch {
        throw new Error(`${variable}: "${part}" is not an address or CIDR range`);
      }
    });
}

/** Parses SLUICE_ALERT_ALLOWED_ADDRESSES; throws with the bad entry. */
export function parseAllowedRanges(text: string): AddressRange[] {
  return parseAddressRanges(text, "SLUICE_ALERT_ALLOWED_ADDRESSES");
}

/**
 * Whether `address` (a plain address, as node:net reports one) is in one of `ranges`. An
 * IPv4-mapped IPv6 address is judged as its IPv4; anything that is not an address is in none.
 */
export function inRanges(address: string, ranges: readonly AddressRange[]): boolean {
  if (ranges.length === 0 || !ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
}
