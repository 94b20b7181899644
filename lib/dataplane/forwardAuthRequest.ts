/**
 * Forward auth (/api/v1/authorize): the request a proxy asks about, read from its headers. The
 * method and URI (X-Forwarded-Method/-Uri, Caddy and Traefik, or X-Original-Method/-URI, nginx),
 * decoded as any request target Sluice serves (lib/dataplane/requestPath.ts), and the host that
 * names the tenant (X-Forwarded-Host, else Host). Whatever is ambiguous (a header sent twice, the
 * two names of a pair disagreeing, several hosts) is a 400 reply: a client behind the proxy must
 * not pick the path, method or tenant the rules see.
 */
import type { IncomingMessage } from "node:http";
import { problemReplyFor } from "../http/problem";
import type { Reply } from "../http/reply";
import { HTTP_METHOD_TOKEN } from "./admission/methodOverride";
import { absoluteForm, decodePathOnce, FRAGMENT, splitTarget } from "./requestPath";

/**
 * One forwarded value from the proxy: `forwarded` (Caddy, Traefik) or `original` (nginx). A reply
 * when it is ambiguous: either header sent more than once (Node would join them with ", "), or both
 * sent with different values. A proxy sets one of the pair and passes the client's other headers on
 * (it must: the credentials are among them), so a client behind nginx could add X-Forwarded-Uri and
 * pick the path the rules see, or the other way round behind Caddy. Neither may win: 400.
 */
function forwardedValue(req: IncomingMessage, forwarded: string, original: string): string | undefined | Reply {
  const a = req.headersDistinct[forwarded];
  const b = req.headersDistinct[original];
  if ((a?.length ?? 0) > 1 || (b?.length ?? 0) > 1)
    return problemReplyFor("bad_request", `Forward auth needs one ${forwarded} or ${original}, not several.`);
  const value = a?.[0]?.trim();
  const other = b?.[0]?.trim();
  if (value !== undefined && other !== undefined && value !== other)
    return problemReplyFor(
      "bad_request",
      `${forwarded} and ${original} disagree: the proxy sets one of them, so the other came from the client.`,
    );
  return value ?? other;
}

/**
 * The host of the request forward auth decides for: the proxy's X-Forwarded-Host, else the Host of
 * the subrequest; a reply when X-Forwarded-Host is sent more than once or lists several hosts (a
 * client's own value beside the proxy's: neither may pick the tenant).
 */
export function forwardedHost(req: IncomingMessage): string | undefined | Reply {
  const sent = req.headersDistinct["x-forwarded-host"];
  if (!sent) return req.headers.host;
  if (sent.length > 1 || sent[0]!.includes(","))
    return problemReplyFor("bad_request", "Forward auth needs one X-Forwarded-Host, not several.");
  return sent[0]!.trim();
}

/** The method, decoded path and query forward auth decides for, from the proxy's headers. */
export function forwardedRequest(req: IncomingMessage): { method: string; path: string; query: string } | Reply {
  const method = forwardedValue(req, "x-forwarded-method", "x-original-method");
  if (typeof method === "object") return method;
  const uri = forwardedValue(req, "x-forwarded-uri", "x-original-uri");
  if (typeof uri === "object") return uri;
  const upper = method?.toUpperCase();
  if (!upper || !HTTP_METHOD_TOKEN.test(upper) || !uri) {
    return problemReplyFor(
      "bad_request",
      "Forward auth needs the original method and URI: X-Forwarded-Method and X-Forwarded-Uri (or X-Original-Method and X-Original-URI).",
    );
  }
  if (/\s/.test(uri)) return problemReplyFor("bad_request", "The forwarded URI is refused: it contains whitespace.");
  // A proxy may pass the URI as the client sent it: in absolute-form too (http://host/path). A
  // fragment is a 400 here as in any request target Sluice serves: the protected API may route
  // `/login#x` as `/login` (nginx does), so no rule may see it otherwise, and none drops it silently.
  if (uri.includes("#")) return problemReplyFor("bad_request", `The forwarded URI is refused: ${FRAGMENT.reason}`);
  const absolute = absoluteForm(uri);
  // `http://user:pw@host/path` is refused for what it is (it was "must start with /").
  if (!absolute && /^[a-z][a-z0-9+.-]*:\/\//i.test(uri))
    return problemReplyFor(
      "bad_request",
      /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(uri)
        ? "The forwarded URI is refused: it carries userinfo (user@ or user:password@), which a request target never does."
        : "The forwarded URI is refused: an absolute URI must be http or https with a host.",
    );
  const target = splitTarget(absolute?.originForm ?? uri);
  const decoded = decodePathOnce(target.rawPath);
  if (!decoded.ok) return problemReplyFor("bad_request", `The forwarded URI is refused: ${decoded.reason}`);
  return { method: upper, path: decoded.path, query: target.query };
}
