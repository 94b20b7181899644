import type { Metadata } from "next";
import LoginForm from "@/components/shell/LoginForm";
import { safeNextPath } from "@/components/shell/safeNextPath";

export const metadata: Metadata = { title: "Log in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next } = await searchParams;
  return (
    <main className="login">
      <LoginForm next={safeNextPath(typeof next === "string" ? next : undefined)} />
    </main>
  );
}
