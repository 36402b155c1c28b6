// License keys generated per second on one core, after the one-time PBKDF2 derivation.
// Target: at least 10,000 keys/s after start-up.
import { performance } from "node:perf_hooks";
import { createLicenseKeys } from "../app/server/license-keys/license-key.server";

const t0 = performance.now();
const keys = createLicenseKeys("bench-secret-0123456789abcdef", "bench-salt-0123");
const deriveMs = performance.now() - t0;

const input = (i: number) => ({
  email: `user${i}@example.com`,
  windows_username: i % 2 ? `DOMAIN\\user${i}` : null,
  computer_name: i % 3 ? `DESKTOP-${i}` : null,
  start_date: new Date(1_790_000_000_000 + i * 1000),
  end_date: new Date(1_792_000_000_000 + i * 1000),
});
for (let i = 0; i < 2_000; i++) keys.generate(input(i)); // warm-up

const rates: number[] = [];
for (let round = 0; round < 5; round++) {
  const n = 20_000;
  const start = performance.now();
  for (let i = 0; i < n; i++) keys.generate(input(i));
  rates.push(n / ((performance.now() - start) / 1000));
}
rates.sort((a, b) => a - b);
const decodeStart = performance.now();
const sample = keys.generate(input(1));
for (let i = 0; i < 20_000; i++) keys.decode(sample);
const decodeRate = 20_000 / ((performance.now() - decodeStart) / 1000);

console.log("license keys (one core)");
console.log(`  key derivation (PBKDF2-SHA256, 100000 iterations, once per process): ${deriveMs.toFixed(0)} ms`);
console.log(
  `  generate: ${Math.round(rates[2]!).toLocaleString("en")} keys/s (median of 5 × 20,000; min ${Math.round(rates[0]!).toLocaleString("en")}) — target ≥ 10,000: ${rates[2]! >= 10_000 ? "met" : "NOT met"}`,
);
console.log(`  decode:   ${Math.round(decodeRate).toLocaleString("en")} keys/s`);
