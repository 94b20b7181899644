import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import Providers from "./providers";
import "./globals.css";
import "./styles/shell.css";
import "./styles/cards.css";
import "./styles/forms.css";
import "./styles/tables.css";
import "./styles/pages.css";
import "./styles/charts.css";

export const metadata: Metadata = {
  title: { default: "Sluice", template: "%s · Sluice" },
  description: "Rate limiting for API teams: rules in Postgres, atomic Redis Lua limiters, a live dashboard.",
  icons: { icon: "/favicon.svg" },
};

/**
 * Every page renders per request, deliberately: proxy.ts gives each page a fresh CSP nonce, and
 * HTML prerendered at build time would carry scripts without it (the browser would refuse them).
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
