/**
 * The clients the candidate would refuse more often than the current rules do, worst first (the
 * API sorts and caps the list). A client is its API key (linked to the key's page) or, for a
 * request without a key, its IP.
 */
import { KeyLink } from "@/components/tables/entityLinks";
import { formatCount } from "@/components/format/numberFormat";
import { Empty } from "@/components/shell/PageState";
import type { NewlyRefusedClient } from "@/lib/control/simulator/simulationResult";
import { ScrollRegion } from "@/components/tables/ScrollRegion";

function Client({ client }: { client: NewlyRefusedClient }) {
  if (client.keyId) return <KeyLink keyId={client.keyId} keyName={client.keyName} />;
  return client.clientIp ? (
    <>
      <code>{client.clientIp}</code> <span className="muted">(no key)</span>
    </>
  ) : (
    <span className="muted">unknown client</span>
  );
}

export function NewlyRefusedTable({ clients }: { clients: NewlyRefusedClient[] }) {
  if (clients.length === 0) return <Empty>No client would be refused more often by the candidate.</Empty>;
  return (
    <ScrollRegion label="Newly refused clients">
      <table>
        <caption className="visually-hidden">Newly refused clients</caption>
        <thead>
          <tr>
            <th scope="col">Client</th>
            <th scope="col" className="num">
              Requests
            </th>
            <th scope="col" className="num">
              Refused now
            </th>
            <th scope="col" className="num">
              Refused by candidate
            </th>
            <th scope="col" className="num">
              Newly refused
            </th>
          </tr>
        </thead>
        <tbody>
          {clients.map((client) => (
            <tr key={client.keyId ?? `ip:${client.clientIp ?? ""}`}>
              <td>
                <Client client={client} />
              </td>
              <td className="num">{formatCount(client.requests)}</td>
              <td className="num">{formatCount(client.currentRefused)}</td>
              <td className="num">{formatCount(client.candidateRefused)}</td>
              <td className="num">
                <strong>+{formatCount(client.candidateRefused - client.currentRefused)}</strong>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
