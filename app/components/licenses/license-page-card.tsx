import type { ReactNode } from "react";
import { licenseTypeLabel } from "~/domain/plans";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";

/**
 * The frame of a license's step as a page of its own (without JavaScript, decision 0057): the step's
 * heading, the license it is about ("Yearly license FK-…"), then the step.
 */
export function LicensePageCard({
  title,
  license,
  children,
}: {
  title: string;
  license: { short_id: string; license_type: string };
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-xl font-semibold">{title}</h1>
          </CardTitle>
          <CardDescription>
            {licenseTypeLabel(license.license_type)} license{" "}
            <span className="font-mono" data-testid="license-short-id">
              {license.short_id}
            </span>
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">{children}</CardContent>
      </Card>
    </div>
  );
}
