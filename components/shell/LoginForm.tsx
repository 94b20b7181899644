"use client";
/**
 * Email and password login. Shows the server's own message on a refusal: 401 "Wrong email or
 * password.", and on 429 when to try again (the login limiter, lib/control/auth/loginLimit.ts). On
 * success it goes to `next`, which the page has already reduced to a same-site path.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ApiError, apiSend, errorMessage } from "@/components/api/apiClient";
import { SESSION_QUERY_KEY, type Session } from "@/components/api/useSession";
import { formatClock } from "@/components/format/dateFormat";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { TextField } from "@/components/forms/TextField";

function refusalText(error: unknown): string {
  if (!(error instanceof ApiError)) return errorMessage(error);
  if (error.status === 429 && error.retryAfterSeconds !== null) {
    const at = new Date(Date.now() + error.retryAfterSeconds * 1000);
    return `${error.detail} You can try again at ${formatClock(at)}.`;
  }
  return error.detail;
}

export default function LoginForm({ next }: { next: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitting(true);
    setProblem(null);
    try {
      const operator = await apiSend<Session>("POST", "/api/auth/login", { email, password });
      queryClient.setQueryData(SESSION_QUERY_KEY, operator);
      router.replace(next);
    } catch (error) {
      setProblem(refusalText(error));
      setSubmitting(false);
    }
  }

  return (
    <form className="card login-card" onSubmit={submit} aria-labelledby="login-heading">
      <h1 id="login-heading">Log in to Sluice</h1>
      <TextField
        id="login-email"
        label="Email"
        name="email"
        type="email"
        autoComplete="username"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <TextField
        id="login-password"
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <FormError message={problem} />
      <SubmitButton pending={submitting} pendingLabel="Logging in…">
        Log in
      </SubmitButton>
    </form>
  );
}
