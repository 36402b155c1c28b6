const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2026-11-03" → "November 3, 2026", the same on server and browser (no time zone involved). */
export function formatReleaseDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return isoDate;
  const [, year, month, day] = match;
  return `${MONTHS[Number(month) - 1]} ${Number(day)}, ${year}`;
}

/** The anchor of a release on /release-notes: "2.4.0" → "v2-4-0". */
export function releaseAnchor(version: string): string {
  return `v${version
    .trim()
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}`;
}

/** How the public pages mark a release that is not a plain stable one (decision 0039). */
export const RELEASE_MARKS = {
  beta: "Beta",
  yanked: "Yanked",
  yankedNotice: "This release was withdrawn and is no longer offered for download or as an update.",
} as const;
