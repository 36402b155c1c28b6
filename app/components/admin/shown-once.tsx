/**
 * A secret shown to the admin once, right after it was made (an API token, a webhook signing secret):
 * what it belongs to, the warning that it will not be shown again, and the value to copy.
 */
export function ShownOnce({
  label,
  warning,
  secret,
  testId,
}: {
  label: string;
  warning: string;
  secret: string;
  testId: string;
}) {
  return (
    <div role="status" className="flex flex-col gap-2 rounded-lg border border-warning/40 bg-warning/10 p-4">
      <p className="text-sm font-medium [overflow-wrap:anywhere]">
        {label}: {warning}
      </p>
      <code data-testid={testId} className="font-mono text-sm [overflow-wrap:anywhere]">
        {secret}
      </code>
    </div>
  );
}
