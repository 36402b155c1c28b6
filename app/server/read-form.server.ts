import { data } from "react-router";

/**
 * The request's form fields; a body that is not a form (a script posting JSON or plain text)
 * answers 400 with a message instead of failing with a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data(
      { toast: { title: "Error", description: "The form could not be read. Please try again.", variant: "destructive" as const } },
      { status: 400 },
    );
  }
}
