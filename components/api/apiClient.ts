/**
 * The dashboard's only way to call the admin API: same-origin fetch with the session cookie, JSON
 * in and out. Any non-2xx answer throws `ApiError` built from the RFC 9457 problem body
 * (lib/http/problem.ts); a network failure throws ApiError with status 0. A 204 resolves to
 * undefined. State-changing calls carry the page's Origin header by themselves (same-origin
 * fetch), which is what the server's CSRF check asks for. A change answered with
 * `Sluice-Propagation: delayed; within=<s>` (saved, but the other instances apply it only within
 * <s> seconds: lib/policy/changes/changeReach.ts) is announced on `window` as
 * PROPAGATION_DELAYED_EVENT (detail: the seconds), which the shell shows (PropagationNotice).
 */

export type SendMethod = "POST" | "PUT" | "PATCH" | "DELETE";

/** The window event a delayed change is announced with; `detail` is the bound in seconds. */
export const PROPAGATION_DELAYED_EVENT = "sluice:propagation-delayed";

function announceDelayedPropagation(response: Response): void {
  const within = /^delayed;\s*within=(\d+)/.exec(response.headers.get("sluice-propagation") ?? "")?.[1];
  if (within !== undefined && typeof window !== "undefined")
    window.dispatchEvent(new CustomEvent(PROPAGATION_DELAYED_EVENT, { detail: Number(within) }));
}

/** How often a live view (lists, cards, charts) polls the admin API: one value for the whole dashboard. */
export const LIVE_INTERVAL_MS = 2000;

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  /** Field path (`name`, `rules.0.limit`, `""` for the whole body) → its messages, joined. */
  readonly fieldErrors: Record<string, string>;
  /** `Retry-After` in seconds, when the server sent one (429, 503). */
  readonly retryAfterSeconds: number | null;
  /** What was saved despite the error (503 "saved but not yet in force", lib/policy/changes/announceChange.ts). */
  readonly resource: unknown;

  constructor(init: {
    status: number;
    title: string;
    detail: string;
    fieldErrors?: Record<string, string>;
    retryAfterSeconds?: number | null;
    resource?: unknown;
  }) {
    super(init.detail || init.title);
    this.name = "ApiError";
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.fieldErrors = init.fieldErrors ?? {};
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.resource = init.resource;
  }
}

/** The 422 body's `errors: { path: string[] }` as one message per field. */
export function toFieldErrors(errors: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!errors || typeof errors !== "object") return out;
  for (const [path, messages] of Object.entries(errors as Record<string, unknown>)) {
    if (Array.isArray(messages)) out[path] = messages.filter((m) => typeof m === "string").join("; ");
    else if (typeof messages === "string") out[path] = messages;
  }
  return out;
}

function retryAfter(response: Response): number | null {
  const header = response.headers.get("retry-after");
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header);
}

async function errorFrom(response: Response): Promise<ApiError> {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = await response.json();
    if (parsed && typeof parsed === "object") body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's HTML page, say): fall back to the status line.
  }
  const title = typeof body.title === "string" ? body.title : response.statusText || `HTTP ${response.status}`;
  const detail = typeof body.detail === "string" ? body.detail : title;
  return new ApiError({
    status: response.status,
    title,
    detail,
    fieldErrors: toFieldErrors(body.errors),
    retryAfterSeconds: retryAfter(response),
    resource: body.resource,
  });
}

async function request<T>(method: "GET" | SendMethod, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      cache: "no-store",
      headers:
        body === undefined
          ? { accept: "application/json" }
          : { accept: "application/json", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError({
      status: 0,
      title: "Network error",
      detail: "The server could not be reached. Check your connection and try again.",
    });
  }
  if (!response.ok) throw await errorFrom(response);
  announceDelayedPropagation(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export function apiGet<T>(path: string): Promise<T> {
  return request<T>("GET", path);
}

export function apiSend<T>(method: SendMethod, path: string, body?: unknown): Promise<T> {
  return request<T>(method, path, body);
}

/** Builds `path?a=1&b=2`, leaving out undefined and empty values. */
export function withQuery(path: string, params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** An error in words for the operator: the problem's `detail` (the server writes it for them), else its title. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.detail || error.title;
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}
