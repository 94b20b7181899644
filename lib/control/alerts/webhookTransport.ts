/**
 * The HTTP transport of alert deliveries: undici's fetch through an Agent whose sockets connect
 * only to addresses the SSRF guard allows (lib/control/alerts/webhookAddress.ts), redirects never
 * followed, the body of the answer discarded. One Agent per allowed-range setting, kept for the
 * process. Rejects with AddressNotAllowedError for a refused IP literal; a refused resolved name
 * rejects with a fetch error whose cause has code `EADDRNOTALLOWED`.
 */
import { Agent, fetch } from "undici";
import type { AddressRange } from "../../config/addressRanges";
import { guardedLookup, literalAddressProblem } from "./webhookAddress";
import { AddressNotAllowedError, type SendWebhook } from "./webhookDelivery";

export function webhookTransport(allowed: AddressRange[]): SendWebhook {
  const agent = new Agent({ connect: { lookup: guardedLookup(allowed), timeout: 5_000 }, keepAliveTimeout: 1_000 });
  return async (url, init) => {
    const problem = literalAddressProblem(new URL(url), allowed);
    if (problem) throw new AddressNotAllowedError(problem);
    const response = await fetch(url, {
      method: "POST",
      headers: init.headers,
      body: init.body,
      signal: init.signal,
      redirect: "manual",
      dispatcher: agent,
    });
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status };
  };
}
