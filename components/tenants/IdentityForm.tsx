"use client";
/**
 * Edits a tenant's hosts and callers (admins only). Checked with the admin API's own schema
 * (lib/policy/identity/identitySchema.ts) before sending, so both give the same messages; a field's
 * 422 is shown on it, a 409 (a host of another tenant) and anything else above the form. Hosts
 * one per line; the JWT keys come from a JWKS URL or an inline key set (JSON).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, apiSend, errorMessage } from "@/components/api/apiClient";
import { zodFieldErrors } from "@/components/forms/zodFieldErrors";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { TextField } from "@/components/forms/TextField";
import { identitySchema, type TenantIdentity } from "@/lib/policy/identity/identitySchema";
import { tenantPath } from "@/components/api/tenantQueries";

type JwtMode = "off" | "url" | "inline";

/** The first message of a field or of any field under it (`hosts` covers `hosts.3`). */
function under(errors: Record<string, string>, field: string): string | undefined {
  return errors[field] ?? Object.entries(errors).find(([path]) => path.startsWith(`${field}.`))?.[1];
}

/** `onSaved`: told after a save; the card shows it, since the stored settings change and the form is rebuilt from them. */
export function IdentityForm({
  tenantId,
  current,
  onSaved,
}: {
  tenantId: string;
  current: TenantIdentity;
  onSaved: (saved: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const jwt = current.jwt;
  const [hosts, setHosts] = useState(current.hosts.join("\n"));
  const [apiKeys, setApiKeys] = useState(current.apiKeys);
  const [anonymous, setAnonymous] = useState(current.anonymous);
  const [mode, setMode] = useState<JwtMode>(!jwt ? "off" : jwt.jwks ? "inline" : "url");
  const [issuer, setIssuer] = useState(jwt?.issuer ?? "");
  const [audience, setAudience] = useState(jwt?.audience ?? "");
  const [jwksUrl, setJwksUrl] = useState(jwt?.jwksUrl ?? "");
  const [jwks, setJwks] = useState(jwt?.jwks ? JSON.stringify(jwt.jwks, null, 2) : "");
  const [subjectClaim, setSubjectClaim] = useState(jwt?.subjectClaim ?? "sub");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (input: unknown) => apiSend<TenantIdentity>("PUT", `${tenantPath(tenantId)}/identity`, input),
    onSuccess: () => {
      onSaved(true);
      void queryClient.invalidateQueries({ queryKey: ["tenant", tenantId, "identity"] });
    },
    onError: (error) => {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) setErrors(error.fieldErrors);
      else setFormError(errorMessage(error));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    onSaved(false);
    let inlineKeys: unknown;
    if (mode === "inline") {
      try {
        inlineKeys = JSON.parse(jwks);
      } catch {
        setErrors({ "jwt.jwks": 'jwks must be JSON: { "keys": [...] }' });
        return;
      }
    }
    const input = {
      hosts: hosts
        .split("\n")
        .map((h) => h.trim())
        .filter((h) => h !== ""),
      apiKeys,
      anonymous,
      jwt:
        mode === "off"
          ? null
          : {
              ...(issuer.trim() ? { issuer: issuer.trim() } : {}),
              ...(audience.trim() ? { audience: audience.trim() } : {}),
              ...(mode === "url" ? { jwksUrl: jwksUrl.trim() } : { jwks: inlineKeys }),
              subjectClaim: subjectClaim.trim() || "sub",
            },
    };
    const parsed = identitySchema.safeParse(input);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(input);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Hosts and callers">
      <FormError message={formError ?? errors[""] ?? null} />
      <div className="form-row">
        <label htmlFor="identity-hosts">Hosts (one per line)</label>
        <textarea
          id="identity-hosts"
          rows={3}
          value={hosts}
          spellCheck={false}
          placeholder="api.example.com"
          aria-invalid={under(errors, "hosts") ? true : undefined}
          aria-describedby="identity-hosts-hint"
          onChange={(e) => setHosts(e.target.value)}
        />
        <p id="identity-hosts-hint" className={under(errors, "hosts") ? "field-error" : "hint"}>
          {under(errors, "hosts") ?? "DNS names only: no port, path, wildcard or IP address; at most 100."}
        </p>
        <label className="inline-check">
          <input type="checkbox" checked={apiKeys} onChange={(e) => setApiKeys(e.target.checked)} /> Accept Sluice API
          keys of this tenant
        </label>
        <label className="inline-check">
          <input type="checkbox" checked={anonymous} onChange={(e) => setAnonymous(e.target.checked)} /> Admit callers
          without a credential (limited per IP; key rules do not apply)
        </label>
        <label htmlFor="identity-jwt-mode">JWT callers</label>
        <select id="identity-jwt-mode" value={mode} onChange={(e) => setMode(e.target.value as JwtMode)}>
          <option value="off">Not accepted</option>
          <option value="url">Keys from a JWKS URL</option>
          <option value="inline">Inline keys (JWKS JSON)</option>
        </select>
        {mode !== "off" ? (
          <>
            <TextField
              id="identity-issuer"
              label="Issuer (iss), optional"
              value={issuer}
              onChange={(e) => setIssuer(e.target.value)}
              error={errors["jwt.issuer"]}
            />
            <TextField
              id="identity-audience"
              label="Audience (aud), optional"
              value={audience}
              onChange={(e) => setAudience(e.target.value)}
              error={errors["jwt.audience"]}
            />
            <TextField
              id="identity-subject"
              label="Subject claim"
              value={subjectClaim}
              onChange={(e) => setSubjectClaim(e.target.value)}
              error={errors["jwt.subjectClaim"]}
              hint="The claim naming the caller: key rules count per value."
            />
          </>
        ) : null}
        {mode === "url" ? (
          <TextField
            id="identity-jwks-url"
            label="JWKS URL"
            value={jwksUrl}
            placeholder="https://id.example.com/.well-known/jwks.json"
            spellCheck={false}
            onChange={(e) => setJwksUrl(e.target.value)}
            error={errors["jwt.jwksUrl"]}
            hint="http or https, never link-local; cached, fetched again for an unknown kid at most once a minute."
          />
        ) : null}
        {mode === "inline" ? (
          <>
            <label htmlFor="identity-jwks">Public keys (JWKS JSON)</label>
            <textarea
              id="identity-jwks"
              rows={6}
              value={jwks}
              spellCheck={false}
              aria-invalid={under(errors, "jwt.jwks") ? true : undefined}
              onChange={(e) => setJwks(e.target.value)}
            />
            {under(errors, "jwt.jwks") ? <p className="field-error">{under(errors, "jwt.jwks")}</p> : null}
          </>
        ) : null}
        <div className="form-actions">
          <SubmitButton pending={save.isPending} pendingLabel="Saving…">
            Save hosts and callers
          </SubmitButton>
        </div>
      </div>
    </form>
  );
}
