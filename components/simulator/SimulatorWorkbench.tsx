"use client";
/**
 * The candidate editor over the full width and, under it, the simulation report with what the
 * candidate changes ("per-key: 120 → 60 per min"), brought into view when a run ends. The candidate starts as the rules the page
 * first loaded; the live rules (`currentRules`) only raise a notice when they change elsewhere,
 * never overwrite the candidate. A 422 to the simulation lands on the candidate's fields, as it
 * does for a save. The report's actions apply the candidate exactly as it was simulated.
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiSend, errorMessage } from "@/components/api/apiClient";
import { RangePicker } from "@/components/charts/RangePicker";
import { RuleListForm } from "@/components/rules/RuleListForm";
import type { RuleDraft } from "@/components/rules/ruleDraft";
import { scopesFor, type RuleOwner } from "@/components/rules/ruleOwner";
import { useRuleDrafts } from "@/components/rules/useRuleDrafts";
import { ChartCard } from "@/components/charts/ChartCard";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import type { Rule } from "@/lib/policy/rules/ruleSchema";
import { simulateSchema, type SimulateBody } from "@/lib/control/simulator/simulateSchema";
import { describeRuleChanges } from "@/components/rules/ruleChanges";
import { CandidateActions } from "./CandidateActions";
import { SimulationReport } from "./SimulationReport";
import { requestRange, SIMULATION_RANGE_WORDS, SIMULATION_RANGES, type SimulationRange } from "./simulationRange";
import type { SimulationResult } from "@/lib/control/simulator/simulationResult";

interface RunRequest extends SimulateBody {
  /** The drafts the body was built from: a 422 lands on them; edited since, the report is stale. */
  drafts: RuleDraft[];
  range: SimulationRange;
}

/** What the simulated candidate changes against the current rules, one line per rule. */
function CandidateChanges({ changes }: { changes: string[] }) {
  if (changes.length === 0) return <p className="hint">The candidate is the same as the current rules.</p>;
  return (
    <div className="candidate-changes">
      <h3>What the candidate changes</h3>
      <ul aria-label="What the candidate changes">
        {changes.map((change) => (
          <li key={change}>{change}</li>
        ))}
      </ul>
    </div>
  );
}

const REPORT_ID = "simulation-report";

function simulatePath(tenantId: string): string {
  return `/api/admin/tenants/${encodeURIComponent(tenantId)}/simulate`;
}

export function SimulatorWorkbench({
  tenantId,
  initialRules,
  currentRules,
  canApply,
}: {
  tenantId: string;
  initialRules: Rule[];
  currentRules: Rule[];
  canApply: boolean;
}) {
  const owner: RuleOwner = { kind: "tenant", tenantId };
  const editing = useRuleDrafts(owner, initialRules);
  const [baseline, setBaseline] = useState(() => JSON.stringify(initialRules));
  const [range, setRange] = useState<SimulationRange>("1h");
  const [formError, setFormError] = useState<string | null>(null);

  const run = useMutation({
    mutationFn: ({ rules, fromMs, toMs }: RunRequest) =>
      apiSend<SimulationResult>("POST", simulatePath(tenantId), { rules, fromMs, toMs }),
    onSuccess: () => {
      // The report renders under the candidate: show it once it is drawn.
      requestAnimationFrame(() => document.getElementById(REPORT_ID)?.scrollIntoView({ block: "start" }));
    },
    onError: (error, request) => {
      if (editing.showServerErrors(error, request.drafts))
        setFormError(`The server refused the candidate: ${errorMessage(error)}`);
    },
  });

  function submit() {
    setFormError(null);
    const drafts = editing.drafts;
    const body = editing.checkBody(simulateSchema, (rules): SimulateBody => ({
      rules,
      ...requestRange(range, Date.now()),
    }));
    if (!drafts || !body) {
      setFormError("Nothing was simulated: fix the fields marked below.");
      return;
    }
    run.mutate({ drafts, range, ...body });
  }

  function resetToCurrent() {
    editing.load(currentRules);
    setBaseline(JSON.stringify(currentRules));
    setFormError(null);
  }

  const drafts = editing.drafts ?? [];
  const changedElsewhere = JSON.stringify(currentRules) !== baseline;
  const request = run.variables;
  const fieldError = run.isError && Object.keys(editing.errors.rules).length + editing.errors.list.length > 0;

  return (
    <div className="workbench">
      <ChartCard
        title="Candidate rules"
        hint="Starts as the tenant's current rules. Change, add or remove rules; nothing is saved by running a simulation."
      >
        <RuleListForm
          label="Candidate rules"
          drafts={drafts}
          errors={editing.errors}
          scopes={scopesFor(owner)}
          formError={formError}
          notices={
            changedElsewhere ? (
              <p className="notice notice-warn" role="status">
                The tenant&apos;s rules were changed elsewhere since this candidate was loaded: the simulation compares
                against the rules as they are now.{" "}
                <button type="button" className="button-quiet" onClick={resetToCurrent}>
                  Load the current rules
                </button>
              </p>
            ) : null
          }
          emptyText="The candidate has no rules: the simulation shows what happens without any limit."
          baseline={currentRules}
          onChange={editing.update}
          onSubmit={submit}
        >
          <button type="button" className="button-quiet" onClick={resetToCurrent} disabled={run.isPending}>
            Reset to current rules
          </button>
          <RangePicker value={range} onChange={setRange} options={SIMULATION_RANGES} />
          <button type="submit" className="button-primary" disabled={run.isPending}>
            {run.isPending ? "Simulating…" : "Run simulation"}
          </button>
        </RuleListForm>
      </ChartCard>

      <ChartCard
        id={REPORT_ID}
        title="Simulation"
        hint={
          request ? `The current rules against the candidate over ${SIMULATION_RANGE_WORDS[request.range]}.` : undefined
        }
      >
        {run.isIdle ? (
          <Empty>
            Run the simulation to replay {SIMULATION_RANGE_WORDS[range]} of recorded requests through both rule sets.
          </Empty>
        ) : null}
        {run.isPending ? <Loading label="Replaying the recorded requests…" /> : null}
        {run.isError && !fieldError ? <ErrorState error={run.error} /> : null}
        {run.isError && fieldError ? (
          <p className="hint">The candidate was refused: see the marked fields above.</p>
        ) : null}
        {run.isSuccess && request ? (
          <>
            <CandidateChanges changes={describeRuleChanges(currentRules, request.rules)} />
            <SimulationReport run={{ result: run.data, requested: request }} />
            {canApply ? (
              <CandidateActions
                tenantId={tenantId}
                candidate={request.rules}
                stale={editing.drafts !== request.drafts}
                onEnforceRefused={(error) => editing.showServerErrors(error, request.drafts)}
                onSaved={(rules) => setBaseline(JSON.stringify(rules))}
              />
            ) : null}
          </>
        ) : null}
      </ChartCard>
    </div>
  );
}
