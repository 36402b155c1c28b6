import { describe, expect, it } from "vitest";
import {
  MATCH_KINDS,
  SEARCH_TOO_SHORT,
  emailLocalEnd,
  matchReason,
  paddleId,
  parseSearchQuery,
  shortIdPart,
  type SearchMatch,
} from "~/domain/admin-search";

const text = (term: string) => {
  const { query } = parseSearchQuery(term);
  if (query?.kind !== "text") throw new Error(`${term} is not free text`);
  return query;
};

describe("what an admin's search term means", () => {
  it("refuses terms under three characters with a message", () => {
    expect(parseSearchQuery("ab")).toEqual({ query: null, error: SEARCH_TOO_SHORT });
    expect(parseSearchQuery("  a  ")).toEqual({ query: null, error: SEARCH_TOO_SHORT });
    expect(parseSearchQuery("abc").error).toBeNull();
  });

  it("a Paddle customer, subscription or transaction id is looked up as that id only, lowercase", () => {
    expect(parseSearchQuery(" ctm_01h8abc ").query).toEqual({ kind: "paddle", idKind: "customer", id: "ctm_01h8abc" });
    expect(parseSearchQuery("SUB_01H8ABC").query).toEqual({
      kind: "paddle",
      idKind: "subscription",
      id: "sub_01h8abc",
    });
    expect(parseSearchQuery("txn_demo_1").query).toEqual({ kind: "paddle", idKind: "transaction", id: "txn_demo_1" });
    // Not ids: another prefix, nothing after it, a space or an @ in it.
    expect(paddleId("adj_01h8abc")).toBeNull();
    expect(paddleId("sub_")).toBeNull();
    expect(paddleId("sub_01 h8")).toBeNull();
    expect(parseSearchQuery("txn_1@example.com").query?.kind).toBe("text");
  });

  it("part of a short id: case, hyphens, spaces and look-alike letters forgiven; FK kept as the prefix", () => {
    expect(shortIdPart("82JA")).toBe("82JA");
    expect(shortIdPart("82ja")).toBe("82JA");
    expect(shortIdPart("fk-82ja")).toBe("FK82JA");
    expect(shortIdPart("FK-82JA-9X")).toBe("FK82JA9X");
    expect(shortIdPart("ja-9x")).toBe("JA9X");
    expect(shortIdPart("o1li")).toBe("0111");
    expect(shortIdPart("fk-xkda")).toBe("FKXKDA");
    expect(shortIdPart("XKDA")).toBe("XKDA");
  });

  it("is not part of a short id: under four characters of the id, over eight, letters outside the alphabet, a word", () => {
    expect(shortIdPart("82J")).toBeNull();
    expect(shortIdPart("FK-82J")).toBeNull();
    expect(shortIdPart("82JA9XKDQ")).toBeNull();
    expect(shortIdPart("82JU")).toBeNull(); // U is not in Crockford's base32
    expect(shortIdPart("dana")).toBeNull(); // a word in lower or mixed case is a name
    expect(shortIdPart("Dana")).toBeNull();
    expect(shortIdPart("ada@x")).toBeNull();
  });

  it("a whole short id with its FK is looked up as that license only; without it, exactly as well as free text", () => {
    expect(parseSearchQuery("fk 82ja 9xkd").query).toEqual({ kind: "short_id", id: "FK-82JA-9XKD" });
    expect(parseSearchQuery(" FK-82JA-9XKO ").query).toEqual({ kind: "short_id", id: "FK-82JA-9XK0" });
    expect(parseSearchQuery("FK82JA9XKD").query).toEqual({ kind: "short_id", id: "FK-82JA-9XKD" });
    // Eight characters without FK may be part of an address or a name with digits (john1234).
    expect(text("82ja9xkd")).toMatchObject({ shortId: "FK-82JA-9XKD", shortIdPart: "82JA9XKD", byEmail: true });
    expect(text("john1234")).toMatchObject({ shortId: "FK-J0HN-1234", byEmail: true });
    expect(text("FK-82JA-9X")).toMatchObject({ shortId: null, shortIdPart: "FK82JA9X" });
    expect(text("82JA").shortId).toBeNull();
  });

  it("an address is read from the end of its local part when a term has one @ with 3 characters before it", () => {
    expect(emailLocalEnd("user123@")).toBe("user123");
    expect(emailLocalEnd(" ada.l@lovel ")).toBe("ada.l");
    expect(text("Ada@Lovelace.example").emailLocalEnd).toBe("Ada");
    expect(emailLocalEnd("ab@lovelace.example")).toBeNull(); // too little of the local part
    expect(emailLocalEnd("@lovelace.example")).toBeNull();
    expect(emailLocalEnd("ada@b@c")).toBeNull(); // an address holds one @: nothing contains this
    expect(emailLocalEnd("lovelace")).toBeNull();
    expect(emailLocalEnd("ada @lovelace")).toBeNull();
  });

  it("an @ or one word with a digit rules out a name, a space rules out an e-mail; free text is looked up both ways", () => {
    expect(text("ada@old.example")).toMatchObject({ byName: false, byEmail: true, shortIdPart: null });
    expect(text("Ada Lovelace")).toMatchObject({ byName: true, byEmail: false, shortIdPart: null });
    expect(text("lovelace")).toMatchObject({ byName: true, byEmail: true, shortIdPart: null, shortId: null });
    expect(text("  lovelace  ").text).toBe("lovelace");
    expect(text("ada42")).toMatchObject({ byName: false, byEmail: true }); // one word with a digit: not a name
    expect(text("User 12")).toMatchObject({ byName: true, byEmail: false });
  });
});

describe("why a user matched", () => {
  it("names the license, the Paddle id or the address that matched", () => {
    const reason = (kind: SearchMatch["kind"], value = "") => matchReason({ kind, value });
    expect(reason("short_id", "FK-82JA-9XKD")).toBe("license FK-82JA-9XKD");
    expect(reason("license_key", "FK-82JA-9XKD")).toBe("license key of FK-82JA-9XKD");
    expect(reason("customer", "ctm_01")).toBe("customer ctm_01");
    expect(reason("subscription", "sub_01")).toBe("subscription sub_01");
    expect(reason("transaction", "txn_01")).toBe("transaction txn_01");
    expect(reason("name")).toBe("name");
    expect(reason("email")).toBe("e-mail");
    expect(reason("license_email", "billing@corp.example")).toBe("license e-mail billing@corp.example");
    expect(reason("previous_email", "ada@old.example")).toBe("previous e-mail ada@old.example");
  });

  it("ranks identifiers before the name, the current e-mail first, a previous one before a license's", () => {
    const at = (kind: SearchMatch["kind"]) => MATCH_KINDS.indexOf(kind);
    expect(at("short_id")).toBeLessThan(at("name"));
    expect(at("subscription")).toBeLessThan(at("name"));
    expect(at("email")).toBeLessThan(at("previous_email"));
    expect(at("previous_email")).toBeLessThan(at("license_email"));
  });
});
