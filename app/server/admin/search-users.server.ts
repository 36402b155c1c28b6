import { createHash } from "node:crypto";
import type { UserSearchResult } from "~/domain/views";
import { ADMIN_PAGE_SIZE } from "~/domain/admin";
import { MATCH_KINDS, parseSearchQuery, type MatchKind, type SearchQuery } from "~/domain/admin-search";
import { desc, sql, type SQL } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { checkouts, license_keys, licenses, payments, profiles, user_email_history, users } from "../db/schema";

export const SEARCH_LIMIT = ADMIN_PAGE_SIZE;

export interface UserPage {
  users: UserSearchResult[];
  page: number;
  hasNext: boolean;
}

/** `%term%` for ILIKE, with the term's own wildcards taken literally. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const columns = {
  id: users.id,
  email: users.email,
  full_name: profiles.full_name,
  company_name: profiles.company_name,
  created_at: users.createdAt,
};

interface Row {
  id: string;
  email: string;
  full_name: string;
  company_name: string | null;
  created_at: Date | string;
  rank?: number;
  value?: string | null;
}

function view(rows: Row[]): UserSearchResult[] {
  return rows.map(({ rank, value, created_at, ...row }) => ({
    ...row,
    created_at: new Date(created_at).toISOString(),
    ...(rank === undefined ? {} : { match: { kind: MATCH_KINDS[rank]!, value: value ?? "" } }),
  }));
}

function paged(rows: UserSearchResult[], page: number): UserPage {
  return { users: rows.slice(0, SEARCH_LIMIT), page, hasNext: rows.length > SEARCH_LIMIT };
}

/** Every user, newest first, one page of 50 (the list without a term). */
export async function listUsers(page = 1): Promise<UserPage> {
  const rows = await getDb()
    .select(columns)
    .from(users)
    .innerJoin(profiles, sql`${profiles.id} = ${users.id}`)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(SEARCH_LIMIT + 1)
    .offset((page - 1) * SEARCH_LIMIT);
  return paged(view(rows), page);
}

/** A lookup's rows: (user_id, rank of its match kind, what matched). */
const rank = (kind: MatchKind) => sql.raw(String(MATCH_KINDS.indexOf(kind)));

/** The rows of several lookups, and the named subqueries (`with`) they read. */
interface Lookups {
  ctes: SQL[];
  lookups: SQL[];
}

/** How many users in name order a name lookup reads before it takes the trigram index instead. */
const NAME_WALK = 5_000;

/**
 * How many of a name's matches the trigram index yields at most to be put in name order (decision
 * 0043): a surname shared by 20,000 users cost the sort of all 20,000 for a page of 50.
 */
const NAME_CANDIDATES = 2_000;

/** A name's surname as the surname index (`profiles_surname_idx`, migration 0023) holds it: its last word, lower case. */
const SURNAME = sql`lower(regexp_replace(p.full_name, '^.*[[:space:]]', ''))`;

/**
 * An address's local part read backwards, lower case, as the `*_email_local_end_idx` indexes hold it
 * (migration 0027, decision 0052): addresses whose local part ends with a term's part before its `@`
 * are a range of that index.
 */
const localEnd = (email: SQL) => sql`reverse(lower(split_part(${email}, '@', 1)))`;

/** `LIKE` pattern of the local parts, read backwards, that end with `end` (its own wildcards taken literally). */
const endsWith = (end: string) =>
  sql`replace(replace(replace(reverse(lower(${end})), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;

/**
 * Whether the address `email` contains the term. With a part before its `@`, from the index of local
 * parts read backwards, then checked whole (`lower(…) like`, which the trigram index cannot serve, so
 * the planner does not add the trigram bitmap of every address sharing `use`, `gma`, `com`);
 * otherwise through the trigram index.
 */
function emailContains(email: SQL, query: Extract<SearchQuery, { kind: "text" }>): SQL {
  const pattern = containsPattern(query.text);
  if (!query.emailLocalEnd) return sql`${email} ilike ${pattern}`;
  return sql`${localEnd(email)} like ${endsWith(query.emailLocalEnd)} and lower(${email}) like lower(${pattern})`;
}

/** The exact lookup of a whole short id typed with its FK: one license at most, through its unique index. */
function shortIdLookup(id: string): SQL[] {
  return [sql`(select l.user_id, ${rank("short_id")}, l.short_id from ${licenses} l where l.short_id = ${id})`];
}

/** Exact lookups by a Paddle id: a few rows at most, through unique or btree indexes. */
function paddleLookups(idKind: "customer" | "subscription" | "transaction", id: string): SQL[] {
  const r = rank(idKind);
  switch (idKind) {
    case "customer":
      return [sql`(select distinct y.user_id, ${r}, y.customer_id from ${payments} y where y.customer_id = ${id})`];
    case "subscription":
      return [
        sql`(select l.user_id, ${r}, l.paddle_subscription_id from ${licenses} l where l.paddle_subscription_id = ${id})`,
        sql`(select distinct y.user_id, ${r}, y.subscription_id from ${payments} y where y.subscription_id = ${id})`,
      ];
    case "transaction":
      return [
        sql`(select y.user_id, ${r}, y.id from ${payments} y where y.id = ${id})`,
        sql`(select c.user_id, ${r}, c.transaction_id from ${checkouts} c where c.transaction_id = ${id})`,
      ];
  }
}

/**
 * Users whose name is the term, in name order, from an index that holds them in that order: for one
 * word, those with it as their surname (`profiles_surname_idx`, decision 0048); for several, those with
 * it as their whole name, case aside (`profiles_full_name_lower_idx`, decision 0052). When they fill
 * the page, that is the page and the other name lookups do not run.
 */
function exactName(text: string, reach: number): SQL {
  const [key, order] = /\s/.test(text)
    ? [sql`lower(p.full_name) = lower(${text})`, sql`lower(p.full_name), p.full_name, p.id`]
    : [sql`${SURNAME} = lower(${text})`, sql`${SURNAME}, p.full_name, p.id`];
  return sql`exact_name as (select p.id from ${profiles} p where ${key} order by ${order} limit ${reach})`;
}

/**
 * Lookups of free text. Those that can match many users (name, e-mails, part of a short id) take
 * only their own first `reach` users in name order: a short walk of the name index when matches
 * are many, the trigram indexes when they are few. The value of e-mail matches is filled in later.
 */
function textLookups(query: Extract<SearchQuery, { kind: "text" }>, reach: number): Lookups {
  const pattern = containsPattern(query.text);
  const ctes: SQL[] = [];
  const lookups: SQL[] = [];
  if (query.shortId) {
    lookups.push(sql`(select l.user_id, ${rank("short_id")}, l.short_id from ${licenses} l
      where l.short_id = ${query.shortId})`);
  } else if (query.shortIdPart) {
    lookups.push(sql`(select l.user_id, ${rank("short_id")}, l.short_id from ${licenses} l
      join ${profiles} p on p.id = l.user_id where replace(l.short_id, '-', '') like ${`%${query.shortIdPart}%`}
      order by p.full_name, p.id limit ${reach})`);
  }
  const keyHash = createHash("sha256").update(query.text, "utf8").digest("hex");
  lookups.push(sql`(select l.user_id, ${rank("license_key")}, l.short_id from ${license_keys} k
    join ${licenses} l on l.id = k.license_id where k.key_hash = ${keyHash})`);
  if (query.byName) {
    // A term that is a surname (one word) or a whole name: its first users in name order from an
    // index of such names (`exactName`). When they fill the page, that is the page (decisions 0048,
    // 0052). Otherwise the first users in name order
    // whose name matches, if they are among the first NAME_WALK users; else (matches are few, or
    // all late in name order) the matches through the trigram index, at most NAME_CANDIDATES of
    // them (every one when fewer match), put in name order. Left to itself the planner walked the
    // whole name index for a rare full name (1.6 s).
    ctes.push(exactName(query.text, reach));
    ctes.push(sql`name_walk as (select w.id from (select p.id, p.full_name from ${profiles} p
      order by p.full_name, p.id limit ${NAME_WALK}) w
      where w.full_name ilike ${pattern} and (select count(*) from exact_name) < ${reach} limit ${reach})`);
    lookups.push(
      sql`(select s.id, ${rank("name")}, null from exact_name s)`,
      sql`(select n.id, ${rank("name")}, null from name_walk n)`,
      sql`(select c.id, ${rank("name")}, null from (select p.id, p.full_name from ${profiles} p
          where p.full_name ilike ${pattern} and (select count(*) from exact_name) + (select count(*) from name_walk) < ${reach}
          limit ${Math.max(NAME_CANDIDATES, reach)}) c
        order by c.full_name, c.id limit ${reach})`,
    );
  }
  if (query.byEmail) {
    lookups.push(
      sql`(select u.id, ${rank("email")}, null from ${users} u join ${profiles} p on p.id = u.id
        where ${emailContains(sql`u.email`, query)} order by p.full_name, p.id limit ${reach})`,
      sql`(select p.id, ${rank("license_email")}, null from ${profiles} p
        where exists (select 1 from ${licenses} l where l.user_id = p.id and ${emailContains(sql`l.email`, query)})
        order by p.full_name, p.id limit ${reach})`,
      sql`(select p.id, ${rank("previous_email")}, null from ${profiles} p
        where exists (select 1 from ${user_email_history} h where h.user_id = p.id and ${emailContains(sql`h.email`, query)})
        order by p.full_name, p.id limit ${reach})`,
    );
  }
  return { ctes, lookups };
}

/** For scripts and benchmarks that pass a term as typed; the route parses it and answers 400 instead. */
function parsedOrThrow(term: string): SearchQuery {
  const { query, error } = parseSearchQuery(term);
  if (!query) throw new Error(error);
  return query;
}

/** What matched, for the kinds whose lookup left it out (the address that contains the term). */
function matchedValue(term: string): SQL {
  const pattern = containsPattern(term);
  return sql`case r.rank
    when ${rank("email")} then u.email
    when ${rank("license_email")} then (select min(l.email) from ${licenses} l
      where l.user_id = u.id and l.email ilike ${pattern})
    when ${rank("previous_email")} then (select h.email from ${user_email_history} h
      where h.user_id = u.id and h.email ilike ${pattern} order by h.changed_at desc limit 1)
    else r.value end`;
}

/**
 * Users a term finds, each once with the most telling reason it matched (see `MATCH_KINDS`), in name
 * order, page by page: by any part of a short id, a license key, a Paddle customer, subscription or
 * transaction id, the full name, the account e-mail, a license's e-mail or an address the account
 * had before a change. The page is cut from the union of the lookups' first pages.
 */
export async function searchUsers(input: SearchQuery | string, page = 1): Promise<UserPage> {
  const query = typeof input === "string" ? parsedOrThrow(input) : input;
  const result = await getDb().execute(searchSql(query, page));
  return paged(view((result as unknown as { rows: Row[] }).rows), page);
}

/** The search's one statement (exported for EXPLAIN in the benchmark). */
export function searchSql(query: SearchQuery, page: number): SQL {
  const reach = page * SEARCH_LIMIT + 1;
  const { ctes, lookups } =
    query.kind === "paddle"
      ? { ctes: [], lookups: paddleLookups(query.idKind, query.id) }
      : query.kind === "short_id"
        ? { ctes: [], lookups: shortIdLookup(query.id) }
        : textLookups(query, reach);
  const term = query.kind === "text" ? query.text : query.id;
  return sql`
    with ${sql.join([...ctes, sql``], sql`, `)} hits (user_id, rank, value) as (${sql.join(lookups, sql` union all `)}),
    r as (select distinct on (user_id) user_id, rank, value from hits order by user_id, rank, value)
    select u.id, u.email, p.full_name, p.company_name, u.created_at, r.rank, ${matchedValue(term)} as value
    from r join ${users} u on u.id = r.user_id join ${profiles} p on p.id = u.id
    order by p.full_name, p.id
    limit ${SEARCH_LIMIT + 1} offset ${(page - 1) * SEARCH_LIMIT}`;
}
