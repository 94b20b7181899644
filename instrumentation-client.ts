/**
 * Runs in the browser before any other code of the dashboard (Next's instrumentation-client).
 *
 * Zod 4 probes `new Function("")` when it builds its first object schema, to decide whether it may
 * compile fast parsers. The page's Content-Security-Policy (lib/http/securityHeaders.js) allows no
 * eval, so the probe fails and the browser reports a CSP violation on every page with a form.
 * `jitless` skips the probe; the forms parse a few fields, speed does not matter. The server keeps
 * Zod's compiled parsers (this file never runs there).
 */
import { z } from "zod";

z.config({ jitless: true });
