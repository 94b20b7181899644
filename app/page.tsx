export default function HomePage() {
  return (
    <main>
      <h1>Sluice</h1>
      <p>Rate limiting for API teams: rules in Postgres, atomic Redis Lua limiters, a live dashboard.</p>
      <p>
        {/* A plain link: /api/health is a route handler, not a page. */}
        <a href="/api/health">Service health</a> (<code>GET /api/health</code>)
      </p>
    </main>
  );
}
