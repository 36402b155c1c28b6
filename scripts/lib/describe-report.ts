// What `npm run license:verify` prints for a report of license-signature.ts.
import { describeEntitlements, describeFallback, describeUpdate } from "./answer-fields";
import { isValid, type LicenseFileReport, type Report, type SignatureCheck } from "./license-signature";

/** The lines the command prints for a report. */
export function describeReport(report: Report): string[] {
  const lines: string[] = [];
  const sig = (check: SignatureCheck) =>
    check.valid ? `valid (Ed25519, kid ${check.kid})` : `INVALID (kid ${check.kid}: ${check.problem})`;
  if (report.kind === "answer") {
    lines.push(`saved answer: HTTP ${report.status}`);
    lines.push(`  signature: ${sig(report.signature)}`);
    if (report.code !== null) lines.push(`  code: ${report.code}`);
    if (report.nonce !== null) lines.push(`  nonce: ${report.nonce}`);
    lines.push(`  issued_at: ${report.issuedAt ?? "(none)"}`);
    if (report.entitlements) lines.push(`  ${describeEntitlements(report.entitlements)}`);
    if (report.fallback) lines.push(`  ${describeFallback(report.fallback)}`);
    if (report.update) lines.push(...describeUpdate(report.update).map((line) => `  ${line}`));
    lines.push(...`  body: ${JSON.stringify(report.body, null, 2)?.replace(/\n/g, "\n  ")}`.split("\n"));
    for (const warning of report.warnings) lines.push(`  warning: ${warning}`);
    if (report.licenseFile) {
      lines.push("license file in the answer:");
      lines.push(...describeFile(report.licenseFile, sig).map((line) => `  ${line}`));
    }
  } else {
    lines.push("license file:");
    lines.push(...describeFile(report, sig));
  }
  lines.push(isValid(report) ? "result: VALID" : "result: INVALID");
  return lines;
}

function describeFile(report: LicenseFileReport, sig: (check: SignatureCheck) => string): string[] {
  const lines = [`  signature: ${sig(report.signature)}`];
  lines.push(`  issued_at: ${report.issuedAt ?? "(none)"}`);
  lines.push(`  refresh_by: ${report.refreshBy ?? "(none)"}`);
  if (report.payload) lines.push(`  ${describeEntitlements(report.entitlements)}`);
  if (report.payload) lines.push(`  ${describeFallback(report.fallback)}`);
  if (report.payload)
    lines.push(...`  payload: ${JSON.stringify(report.payload, null, 2).replace(/\n/g, "\n  ")}`.split("\n"));
  for (const warning of report.warnings) lines.push(`  warning: ${warning}`);
  return lines;
}
