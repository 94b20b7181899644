"use client";
/** The overview at `/`: live traffic of every tenant, 429 rates, hot keys; first, who is limited right now. */
import { useState } from "react";
import { HotKeysTable } from "@/components/charts/HotKeysTable";
import { RANGES, RangePicker, type Range } from "@/components/charts/RangePicker";
import { RefusalRateChart } from "@/components/charts/RefusalRateChart";
import { TrafficChart } from "@/components/charts/TrafficChart";
import { LimitedNowTable } from "./LimitedNowTable";

export default function Overview() {
  const [range, setRange] = useState<Range>("5m");
  return (
    <>
      <div className="page-header">
        <h1>Overview</h1>
        <RangePicker value={range} onChange={setRange} options={RANGES} />
      </div>
      <div className="stack">
        <LimitedNowTable />
        <TrafficChart range={range} title="Requests per second, all tenants" />
        <div className="grid-2">
          <RefusalRateChart range={range} by="tenant" />
          <RefusalRateChart range={range} by="rule" />
        </div>
        <HotKeysTable range={range} />
      </div>
    </>
  );
}
