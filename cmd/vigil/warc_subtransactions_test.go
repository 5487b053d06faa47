package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestWARCImportPostgresNoSubtransactionPerWrite: an import of 200 pages
// (100 URLs, two versions each, with links) into PostgreSQL writes every
// row in its transaction itself, not in a subtransaction of each write:
// a row's xmin is the id of the (sub)transaction that wrote it, and all
// the rows the import wrote have the same. Each write ran under a
// savepoint of its own, a subtransaction with an id of its own: past 64
// in one transaction, every session of the server checks the visibility
// of rows more slowly (pg_subtrans) until the import ends.
func TestWARCImportPostgresNoSubtransactionPerWrite(t *testing.T) {
	dsn := postgresDSN(t)
	var urls []string
	for i := range 100 {
		urls = append(urls, fmt.Sprintf("http://example.com/p%d", i))
	}
	recs := pages("2026-01-01T00:00:00Z", urls...)
	for _, r := range pages("2026-02-01T00:00:00Z", urls...) {
		r.block = strings.Replace(r.block, "</p>", `</p><a href="/next">next</a>`, 1)
		recs = append(recs, r)
	}
	file := writeForeignWARC(t, true, recs...)
	_, errOut, code := runCmd(t, nil, "import", "warc", "--postgres", dsn, file)
	if code != exitOK || !strings.Contains(errOut, "imported 200 versions;") {
		t.Fatalf("import: exit %d\n%s", code, errOut)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var rows, xids int
	err = conn.QueryRow(ctx, `SELECT count(*), count(DISTINCT xmin::text) FROM (
		SELECT xmin FROM resources UNION ALL SELECT xmin FROM versions UNION ALL SELECT xmin FROM bodies
		UNION ALL SELECT xmin FROM blobs UNION ALL SELECT xmin FROM links) AS written`).Scan(&rows, &xids)
	if err != nil {
		t.Fatal(err)
	}
	if rows < 500 || xids != 1 {
		t.Errorf("the import wrote %d rows in %d transactions and subtransactions; want them all in its transaction", rows, xids)
	}
}
