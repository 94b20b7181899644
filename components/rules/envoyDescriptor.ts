/**
 * A descriptor rule's `match.descriptor` in words, and the Envoy route config that makes Envoy send
 * a descriptor it matches (docs/envoy.md, "The descriptors Envoy's actions send"): one
 * `rate_limits` entry whose actions, in order, produce the entries, in order.
 *
 * Each entry key maps to the action that produces it: Envoy's own keys (`remote_address`,
 * `masked_remote_address`, `generic_key`, `header_match`, `query_match`, `destination_cluster`,
 * `source_cluster`) to their action; any other key to `generic_key` with `descriptor_key` when it
 * has a value (one fixed value on the route), else to `request_headers` (counted per value of a
 * header, named after the key; `path`, `method` and `host` read Envoy's pseudo-headers). Values are
 * quoted as YAML when they are not plain words. Pure: the editor redraws it on every keystroke.
 */
import type { DescriptorEntry } from "@/lib/policy/rules/ruleSchema";

/** `path=/login, remote_address` (an entry without a value is counted per value). */
export function descriptorText(entries: readonly DescriptorEntry[]): string {
  return entries.map((entry) => (entry.value === undefined ? entry.key : `${entry.key}=${entry.value}`)).join(", ");
}

const PLAIN = /^[A-Za-z0-9_./-]+$/;
/** A YAML scalar: plain when safe, else double-quoted (a JSON string is a valid YAML one). */
const yaml = (text: string): string => (PLAIN.test(text) && !/^[-./]$/.test(text) ? text : JSON.stringify(text));

const PSEUDO_HEADERS: Record<string, string> = { path: ":path", method: ":method", host: ":authority" };

/** The header a per-value entry is read from: Envoy's pseudo-header, the key when it is one, else x-<key>. */
function headerFor(key: string): string {
  const pseudo = PSEUDO_HEADERS[key];
  if (pseudo) return pseudo;
  const name = key.toLowerCase().replace(/_/g, "-");
  return /^[a-z0-9-]+$/.test(name) ? (name.startsWith("x-") ? name : `x-${name}`) : "x-your-header";
}

/** One action (YAML lines, without the list dash's indent) producing the entry. */
function actionFor(entry: DescriptorEntry): string[] {
  const { key, value } = entry;
  const shown = value === undefined ? "any-value" : value;
  const perValue = value === undefined ? "  # counted per value" : "";
  switch (key) {
    case "remote_address":
      return [`remote_address: {}${value === undefined ? "" : `  # only ${value}`}`];
    case "masked_remote_address":
      return [`masked_remote_address: { v4_prefix_mask_len: 24, v6_prefix_mask_len: 64 }`];
    case "destination_cluster":
    case "source_cluster":
      return [`${key}: {}${value === undefined ? "" : `  # only ${value}`}`];
    case "generic_key":
      return [`generic_key: { descriptor_value: ${yaml(shown)} }${perValue}`];
    case "header_match":
      return [
        "header_value_match:",
        `    descriptor_value: ${yaml(shown)}${perValue}`,
        '    headers: [{ name: ":method", string_match: { exact: POST } }]  # the headers to match',
      ];
    case "query_match":
      return [
        "query_parameter_value_match:",
        `    descriptor_value: ${yaml(shown)}${perValue}`,
        "    query_parameters: [{ name: plan, string_match: { exact: free } }]  # the parameters to match",
      ];
    default:
      return value === undefined
        ? [`request_headers: { header_name: ${yaml(headerFor(key))}, descriptor_key: ${yaml(key)} }`]
        : [`generic_key: { descriptor_key: ${yaml(key)}, descriptor_value: ${yaml(value)} }`];
  }
}

/** The `rate_limits` entry of an Envoy route (or virtual host) that sends this descriptor. */
export function envoyRouteExample(entries: readonly DescriptorEntry[]): string {
  const usable = entries.filter((entry) => entry.key !== "");
  if (usable.length === 0) return "rate_limits:\n  - actions: []  # add an entry";
  const lines = ["rate_limits:", "  - actions:"];
  for (const entry of usable) {
    const [first, ...rest] = actionFor(entry);
    lines.push(`      - ${first}`, ...rest.map((line) => `      ${line}`));
  }
  return lines.join("\n");
}

/** What Envoy then sends, with a placeholder for each value counted per value. */
export function descriptorSent(entries: readonly DescriptorEntry[]): string {
  return entries
    .filter((entry) => entry.key !== "")
    .map((entry) => `${entry.key}=${entry.value ?? `<${entry.key}>`}`)
    .join(", ");
}
