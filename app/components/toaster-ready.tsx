import { useEffect } from "react";
import { toasterMounted } from "~/lib/toast";
import { Toaster } from "./ui/sonner";

/** The toaster; tells showToast it may deliver once it is listening. */
export default function ToasterReady() {
  useEffect(() => toasterMounted(), []);
  return <Toaster />;
}
