"use client";
/** The overview at `/`: live traffic of every tenant, 429 rates, hot keys, clients near their limit. */
import { useState } from "react";
import { HotKeysTable } from "@/components/charts/HotKeysTable";
import { NearLimitTable } from "@/components/charts/NearLimitTable";
import { RANGES, RangePicker, type Range } from "@/components/charts/RangePicker";
import { RefusalRateChart } from "@/components/charts/RefusalRateChart";
import { TrafficChart } from "@/components/charts/TrafficChart";

export default function Overview() {
  const [range, setRange] = useState<Range>("5m");
  return (
    <>
      <div className="page-header">
        <h1>Overview</h1>
        <RangePicker value={range} onChange={setRange} options={RANGES} />
      </div>
      <div className="stack">
        <TrafficChart range={range} title="Requests per second, all tenants" />
        <div className="grid-2">
          <RefusalRateChart range={range} by="tenant" />
          <RefusalRateChart range={range} by="rule" />
        </div>
        <HotKeysTable range={range} />
        <NearLimitTable range={range} />
      </div>
    </>
  );
}
