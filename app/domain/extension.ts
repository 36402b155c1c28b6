/** License extension (docs/product.md, "Extending a license"): 9 per extra month, 99 per extra year. */
export const EXTENSION_MONTH_CENTS = 900;
export const EXTENSION_YEAR_CENTS = 9900;
export const MAX_EXTRA_MONTHS = 12;
export const MAX_EXTRA_YEARS = 5;
/** The demo provider's simulated payment takes this long (2 seconds). */
export const DEMO_EXTENSION_DELAY_MS = 2000;

export function isValidExtension(months: number, years: number): boolean {
  return (
    Number.isInteger(months) &&
    Number.isInteger(years) &&
    months >= 0 &&
    months <= MAX_EXTRA_MONTHS &&
    years >= 0 &&
    years <= MAX_EXTRA_YEARS &&
    months + years > 0
  );
}

export function extensionPriceCents(months: number, years: number): number {
  return months * EXTENSION_MONTH_CENTS + years * EXTENSION_YEAR_CENTS;
}

/** Months added to the end date: months plus 12 per year. */
export function extensionMonths(months: number, years: number): number {
  return months + 12 * years;
}

/** Adds calendar months in UTC; the 31st of a shorter month becomes its last day. */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** Adds whole days. */
export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 24 * 60 * 60 * 1000);
}

/**
 * The end date after an extension paid at `paidAt`: months added to the later of the current end
 * and the payment, so an extension of an expired license always ends in the future.
 */
export function extendedEndDate(endDate: Date, paidAt: Date, months: number): Date {
  return addMonths(endDate > paidAt ? endDate : paidAt, months);
}

/**
 * The months and years a page address asks for (`?months=2&years=1`), so the extension page works
 * as a plain form without JavaScript: each stepper is a link to the page with one more or one
 * fewer, and the server prints the price. Anything not a whole number in range counts as 0.
 */
export function extensionCountsFromQuery(params: URLSearchParams): { months: number; years: number } {
  const read = (name: string, max: number) => {
    const value = Number(params.get(name) ?? "0");
    return Number.isInteger(value) && value >= 0 && value <= max ? value : 0;
  };
  return { months: read("months", MAX_EXTRA_MONTHS), years: read("years", MAX_EXTRA_YEARS) };
}

/**
 * Whether the price the page showed (`quoted`, in cents, sent along with the form) is the price of
 * the numbers submitted. Without JavaScript the total on the button is the server's, printed
 * before the customer typed new numbers: a different total is shown again for confirmation
 * rather than charged. No quote (a script's post) means the page computed it live.
 */
export function quoteMatches(quoted: string | null, months: number, years: number): boolean {
  if (quoted === null || quoted === "") return true;
  return Number(quoted) === extensionPriceCents(months, years);
}

/** "2 months and 1 year": the extension in words. */
export function extensionWords(months: number, years: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return [months ? plural(months, "month") : null, years ? plural(years, "year") : null].filter(Boolean).join(" and ");
}
