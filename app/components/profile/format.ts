/** Made once each: a formatter costs far more to build than to use (the profile lists every session). */
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const TIME = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

/** A timestamp as people read it, the same on the server and in the browser (UTC). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return `${DAY.format(date)}, ${TIME.format(date)} UTC`;
}
