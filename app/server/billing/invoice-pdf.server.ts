import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { formatDate } from "~/domain/format-date";
import { money, type InvoiceDocument } from "./invoice.server";

/**
 * The demo provider's invoice as a PDF (pdf-lib, the standard Helvetica fonts): seller, buyer
 * (the billing details, name and company from the profile), the line item, the tax line and the totals. Paddle's own
 * invoices are fetched from Paddle instead (GET /transactions/{id}/invoice).
 */

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const INK = rgb(0.1, 0.11, 0.13);
const MUTED = rgb(0.42, 0.44, 0.48);
const RULE = rgb(0.82, 0.84, 0.87);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  /** Characters the standard fonts can print (WinAnsi); others become "?". */
  printable: Set<number>;
}

/** Text the standard fonts can encode, cut with an ellipsis to fit the width. */
function fit(fonts: Fonts, font: PDFFont, text: string, size: number, maxWidth: number): string {
  let safe = Array.from(text.replace(/[\r\n\t]+/g, " "))
    .map((char) => (fonts.printable.has(char.codePointAt(0)!) ? char : "?"))
    .join("");
  if (font.widthOfTextAtSize(safe, size) <= maxWidth) return safe;
  while (safe.length > 1 && font.widthOfTextAtSize(`${safe}…`, size) > maxWidth) safe = safe.slice(0, -1);
  return `${safe.trimEnd()}…`;
}

type TextOptions = {
  size?: number;
  font?: PDFFont;
  color?: ReturnType<typeof rgb>;
  align?: "left" | "right";
  maxWidth?: number;
};

const RIGHT = A4.width - MARGIN;
const WIDTH = RIGHT - MARGIN;

/** Drawing on the page: text fitted to its width (left or right aligned) and the horizontal rules. */
function pen(page: PDFPage, fonts: Fonts) {
  const text = (
    value: string,
    x: number,
    y: number,
    { size = 10, font = fonts.regular, color = INK, align = "left", maxWidth = WIDTH }: TextOptions = {},
  ) => {
    const shown = fit(fonts, font, value, size, maxWidth);
    const at = align === "right" ? x - font.widthOfTextAtSize(shown, size) : x;
    page.drawText(shown, { x: at, y, size, font, color });
  };
  const rule = (y: number) =>
    page.drawLine({ start: { x: MARGIN, y }, end: { x: RIGHT, y }, thickness: 0.75, color: RULE });
  return { text, rule, fonts };
}
type Pen = ReturnType<typeof pen>;

/** Heading: the seller on the left, the invoice's facts on the right. Answers the y below both. */
function drawHeading({ text, fonts }: Pen, invoice: InvoiceDocument): number {
  let y = A4.height - MARGIN;
  text("INVOICE", RIGHT, y - 4, { size: 20, font: fonts.bold, align: "right", maxWidth: 200 });
  text(invoice.seller.name, MARGIN, y, { size: 14, font: fonts.bold, maxWidth: WIDTH / 2 - 10 });
  y -= 18;
  const { seller } = invoice;
  const taxId = seller.taxId ? `VAT / tax id: ${seller.taxId}` : null;
  for (const line of [...seller.address, taxId, seller.email, seller.website]) {
    if (!line) continue;
    text(line, MARGIN, y, { color: MUTED, maxWidth: WIDTH / 2 - 10 });
    y -= 14;
  }
  let factsY = A4.height - MARGIN - 26;
  for (const [label, value] of [
    ["Invoice number", invoice.number],
    ["Date", formatDate(invoice.issuedAt)],
    ["Transaction", invoice.transactionId],
    ["Status", invoice.status],
  ] as const) {
    text(label, RIGHT - 235, factsY, { size: 9, color: MUTED, maxWidth: 70 });
    text(value, RIGHT, factsY, { size: 9, align: "right", maxWidth: 160 });
    factsY -= 13;
  }
  return Math.min(y, factsY);
}

/** The buyer: the billing name (else the person), company, address, tax id and e-mail (decision 0040). */
function drawBuyer({ text, fonts }: Pen, invoice: InvoiceDocument, top: number): number {
  let y = top - 24;
  text("BILL TO", MARGIN, y, { size: 9, font: fonts.bold, color: MUTED });
  y -= 16;
  text(invoice.buyer.heading, MARGIN, y, { size: 11, font: fonts.bold });
  y -= 15;
  for (const line of invoice.buyer.lines) {
    text(line, MARGIN, y, { color: line === invoice.buyer.email ? MUTED : undefined });
    y -= 14;
  }
  return y - 20;
}

/** Line items: description (and its detail), quantity and amount. */
function drawLines({ text, rule, fonts }: Pen, invoice: InvoiceDocument, top: number): number {
  let y = top;
  const qtyX = RIGHT - 110;
  text("DESCRIPTION", MARGIN, y, { size: 9, font: fonts.bold, color: MUTED });
  text("QTY", qtyX, y, { size: 9, font: fonts.bold, color: MUTED, align: "right" });
  text("AMOUNT", RIGHT, y, { size: 9, font: fonts.bold, color: MUTED, align: "right" });
  y -= 8;
  rule(y);
  y -= 18;
  for (const line of invoice.lines) {
    text(line.description, MARGIN, y, { maxWidth: qtyX - MARGIN - 40 });
    text(String(line.quantity), qtyX, y, { align: "right" });
    text(money(invoice, line.amountCents), RIGHT, y, { align: "right", maxWidth: 90 });
    if (line.detail) {
      y -= 13;
      text(line.detail, MARGIN, y, { size: 9, color: MUTED, maxWidth: qtyX - MARGIN - 40 });
    }
    y -= 20;
  }
  rule(y + 8);
  return y;
}

/** Totals: subtotal, the tax line, total; then what was refunded, if anything. */
function drawTotals({ text, fonts }: Pen, invoice: InvoiceDocument, top: number): void {
  let y = top - 12;
  const labelX = RIGHT - 150;
  const total = (label: string, amount: number, emphasis = false) => {
    const font = emphasis ? fonts.bold : fonts.regular;
    text(label, labelX, y, { font, size: emphasis ? 11 : 10, maxWidth: 100 });
    text(money(invoice, amount), RIGHT, y, { font, size: emphasis ? 11 : 10, align: "right", maxWidth: 90 });
    y -= emphasis ? 18 : 15;
  };
  total("Subtotal", invoice.subtotalCents);
  total(invoice.taxRate !== null ? `Tax (${invoice.taxRate}%)` : "Tax", invoice.taxCents);
  total("Total", invoice.totalCents, true);
  total(`Paid ${formatDate(invoice.issuedAt)}`, invoice.totalCents);
  if (invoice.refundedCents > 0) total("Refunded", -invoice.refundedCents);
}

/** Footer: the license, where to ask, and that the demo checkout moved no money. */
function drawFooter({ text }: Pen, invoice: InvoiceDocument): void {
  text(
    `License ${invoice.licenseShortId}. Questions about this invoice: ${invoice.seller.email}`,
    MARGIN,
    MARGIN + 14,
    { size: 8, color: MUTED },
  );
  text("Issued by the site's demo checkout: no card was charged and no money moved.", MARGIN, MARGIN, {
    size: 8,
    color: MUTED,
  });
}

export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Invoice ${invoice.number}`);
  pdf.setAuthor(invoice.seller.name);
  pdf.setSubject(`Invoice ${invoice.number} for ${invoice.buyer.heading}`);
  pdf.setCreator(invoice.seller.name);
  pdf.setProducer("pdf-lib");
  pdf.setCreationDate(invoice.issuedAt);
  pdf.setModificationDate(invoice.issuedAt);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const fonts: Fonts = { regular, bold, printable: new Set(regular.getCharacterSet()) };
  const page = pen(pdf.addPage([A4.width, A4.height]), fonts);
  const belowHeading = drawHeading(page, invoice);
  const belowBuyer = drawBuyer(page, invoice, belowHeading);
  const belowLines = drawLines(page, invoice, belowBuyer);
  drawTotals(page, invoice, belowLines);
  drawFooter(page, invoice);
  return pdf.save();
}
