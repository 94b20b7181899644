/**
 * Every route group of the API, one file each under ./paths. A new route is described by adding
 * its operations to its group's file (or a new group listed here); openApiDocument.test.ts fails
 * while a route file under app/api has no description here.
 */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { accessListPaths } from "./paths/accessLists";
import { alertPaths } from "./paths/alerts";
import { auditAndOperatorPaths } from "./paths/auditAndOperators";
import { counterResetPaths } from "./paths/counterResets";
import { dataPlanePaths } from "./paths/dataPlane";
import { gatewayPaths } from "./paths/gateway";
import { grantPaths } from "./paths/grants";
import { identifierOverridePaths } from "./paths/identifierOverrides";
import { keyPaths } from "./paths/keys";
import { monitoringPaths } from "./paths/monitoring";
import { policyPaths } from "./paths/policy";
import { systemPaths } from "./paths/system";
import { tenantPaths } from "./paths/tenants";
import { tierPaths } from "./paths/tiers";
import { tokenPaths } from "./paths/tokens";
import { usagePaths } from "./paths/usage";

export const ROUTE_GROUPS: readonly ZodOpenApiPathsObject[] = [
  dataPlanePaths,
  tenantPaths,
  tierPaths,
  gatewayPaths,
  accessListPaths,
  alertPaths,
  keyPaths,
  counterResetPaths,
  grantPaths,
  identifierOverridePaths,
  policyPaths,
  monitoringPaths,
  usagePaths,
  auditAndOperatorPaths,
  tokenPaths,
  systemPaths,
];
