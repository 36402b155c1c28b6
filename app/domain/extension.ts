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
