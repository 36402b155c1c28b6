import { describe, expect, it } from "vitest";
import { connectionFor } from "../../../scripts/lib/pg-tools";

// pg_dump and pg_restore get the database's password through PGPASSWORD, never on the command line.

describe("the tools' connection without its password", () => {
  it.each([
    ["postgres://root:S3cret@db.internal:5432/forgekit", "postgres://root@db.internal:5432/forgekit", "S3cret"],
    [
      "postgresql://root:p%40ss%2Fw@db/forgekit?sslmode=require",
      "postgresql://root@db/forgekit?sslmode=require",
      "p@ss/w",
    ],
    [
      "postgres://root@db/forgekit?password=S3cret&sslmode=require",
      "postgres://root@db/forgekit?sslmode=require",
      "S3cret",
    ],
    ["host=db dbname=forgekit password='S3 cr\\'et' user=root", "host=db dbname=forgekit user=root", "S3 cr'et"],
    ["host=db password=S3cret dbname=forgekit", "host=db dbname=forgekit", "S3cret"],
  ])("%s", (address, dbname, password) => {
    expect(connectionFor(address)).toEqual({ dbname, env: { PGPASSWORD: password } });
  });

  it("leaves an address without a password as it is, with no PGPASSWORD", () => {
    expect(connectionFor("postgres://root@127.0.0.1:5432/test")).toEqual({
      dbname: "postgres://root@127.0.0.1:5432/test",
      env: {},
    });
  });
});
