package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warc"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// importBackend is a store an import test runs on: the SQLite file in a
// data directory, or a schema of the PostgreSQL test server.
type importBackend struct {
	name string
	args func(t *testing.T) []string // the store flags of the command line
}

// importBackends are SQLite always, and PostgreSQL when
// VIGIL_TEST_POSTGRES_DSN is set.
var importBackends = []importBackend{
	{"sqlite", func(t *testing.T) []string { return []string{"--data", t.TempDir()} }},
	{"postgres", func(t *testing.T) []string { return []string{"--postgres", postgresDSN(t)} }},
}

// openFlags opens the store that the store flags args name.
func openFlags(t *testing.T, args []string) vigil.Store {
	t.Helper()
	var dir, dsn string
	if args[0] == "--data" {
		dir = args[1]
	} else {
		dsn = args[1]
	}
	st, err := openStore(context.Background(), dir, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// storeState describes everything of st an import could change: each
// resource, each of its versions and how its body is stored, and the
// sums of the stored bodies.
func storeState(t *testing.T, st vigil.Store) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	rs, _, err := st.FindResources(ctx, vigil.ResourceFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		fmt.Fprintf(&b, "resource %d %s\n", r.ID, r.URL)
		vs, _, err := st.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			body, err := st.Body(ctx, v.ID)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "  version %d seq %d at %s hash %s body %s base %d %x\n", v.ID, v.Seq, v.FetchedAt, v.ContentHash, body.Encoding, body.BaseID, body.Data)
		}
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "stats %+v\n", *stats)
	return b.String()
}

// pages returns a response record of each URL, fetched at date, its body
// naming it.
func pages(date string, urls ...string) []foreignRecord {
	var recs []foreignRecord
	for _, u := range urls {
		recs = append(recs, foreignRecord{typ: warc.TypeResponse, uri: u, date: date,
			block: httpResponse("Content-Type: text/html\r\n", "<html><body><p>"+u+" at "+date+"</p></body></html>")})
	}
	return recs
}

// TestWARCImportCutFileChangesNothing: a .warc.gz file whose last gzip
// member is cut short is an error naming the record cut, and leaves the
// store as it was, on both backends: the records before the cut were
// imported, new pages and new versions of pages the store held (whose
// previous newest versions were re-encoded as patches against them).
// --keep-partial imports them, as before.
func TestWARCImportCutFileChangesNothing(t *testing.T) {
	for _, b := range importBackends {
		t.Run(b.name, func(t *testing.T) {
			store := b.args(t)
			first := writeForeignWARC(t, true, pages("2026-01-01T00:00:00Z", "http://example.com/a", "http://example.com/b")...)
			if _, errOut, code := runCmd(t, nil, append(append([]string{"import", "warc"}, store...), first)...); code != exitOK {
				t.Fatalf("first import: exit %d\n%s", code, errOut)
			}
			cut := writeForeignWARC(t, true, pages("2026-02-01T00:00:00Z", "http://example.com/a", "http://example.com/c", "http://example.com/b")...)
			data, err := os.ReadFile(cut)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cut, data[:len(data)-30], 0o600); err != nil {
				t.Fatal(err)
			}
			before := storeState(t, openFlags(t, store))
			_, errOut, code := runCmd(t, nil, append(append([]string{"import", "warc"}, store...), cut)...)
			if code != exitError || !strings.Contains(errOut, cut+": record 3 at offset ") || !strings.Contains(errOut, "nothing imported") ||
				!strings.Contains(errOut, "imported 0 versions;") || !strings.Contains(errOut, "--keep-partial") {
				t.Errorf("import of a cut file: exit %d\n%s", code, errOut)
			}
			if after := storeState(t, openFlags(t, store)); after != before {
				t.Errorf("the store changed:\nbefore\n%s\nafter\n%s", before, after)
			}
			_, errOut, code = runCmd(t, nil, append(append([]string{"import", "warc", "--keep-partial"}, store...), cut)...)
			if code != exitError || !strings.Contains(errOut, cut+": record 3 at offset ") || !strings.Contains(errOut, "imported 2 versions;") {
				t.Errorf("import --keep-partial of a cut file: exit %d\n%s", code, errOut)
			}
			st := openFlags(t, store)
			for _, u := range []string{"http://example.com/a", "http://example.com/c"} {
				r, v, err := st.LatestVersionByURL(context.Background(), u)
				if err != nil || v == nil || v.Seq != map[string]int64{"http://example.com/a": 2, "http://example.com/c": 1}[u] {
					t.Errorf("--keep-partial: %s: %v %v %v", u, r, v, err)
				}
			}
		})
	}
}

// stoppingStore runs its transactions through a stoppingTx, which calls
// stop when the import appends its nth version: an interrupt, or a store
// that fails, between two records.
type stoppingStore struct {
	vigil.Store
	n    int
	stop func() error
}

func (s *stoppingStore) InTransaction(ctx context.Context, fn func(tx vigil.TxStore) error) error {
	return s.Store.(vigil.Transactor).InTransaction(ctx, func(tx vigil.TxStore) error {
		return fn(&stoppingTx{TxStore: tx, s: s})
	})
}

type stoppingTx struct {
	vigil.TxStore
	s       *stoppingStore
	appends int
}

func (tx *stoppingTx) AppendVersion(ctx context.Context, a *vigil.Append) error {
	if err := tx.TxStore.AppendVersion(ctx, a); err != nil {
		return err
	}
	if tx.appends++; tx.appends == tx.s.n {
		return tx.s.stop()
	}
	return nil
}

// TestWARCImportStoppedChangesNothing: an import interrupted between two
// records once it has stored some (its context cancelled, Ctrl-C), or
// whose store fails on one, returns the error and leaves the store as it
// was, on both backends.
func TestWARCImportStoppedChangesNothing(t *testing.T) {
	storeFailed := errors.New("disk full")
	for _, b := range importBackends {
		for _, c := range []struct {
			name string
			want error
		}{{"interrupt", context.Canceled}, {"store error", storeFailed}} {
			t.Run(b.name+"/"+c.name, func(t *testing.T) {
				st := openFlags(t, b.args(t))
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				wh, err := openWarehouse(st, warehouse.Options{})
				if err != nil {
					t.Fatal(err)
				}
				first := writeForeignWARC(t, true, pages("2026-01-01T00:00:00Z", "http://example.com/a", "http://example.com/b")...)
				if _, _, err := importWARC(ctx, wh, first, openT(t, first), warcImportOptions{verify: true}, io.Discard); err != nil {
					t.Fatal(err)
				}
				before := storeState(t, st)
				stopping := &stoppingStore{Store: st, n: 3, stop: func() error {
					if c.want == context.Canceled {
						cancel()
						return nil
					}
					return c.want
				}}
				if wh, err = openWarehouse(stopping, warehouse.Options{}); err != nil {
					t.Fatal(err)
				}
				file := writeForeignWARC(t, true, pages("2026-02-01T00:00:00Z", "http://example.com/a", "http://example.com/c", "http://example.com/b", "http://example.com/d", "http://example.com/e")...)
				n, _, err := importWARC(ctx, wh, file, openT(t, file), warcImportOptions{verify: true}, io.Discard)
				if !errors.Is(err, c.want) || n != 0 || !strings.Contains(err.Error(), "nothing imported") {
					t.Errorf("import stopped: %d imported, error %v; want none and %v", n, err, c.want)
				}
				if after := storeState(t, st); after != before {
					t.Errorf("the store changed:\nbefore\n%s\nafter\n%s", before, after)
				}
			})
		}
	}
}

// openT opens file for the test.
func openT(t *testing.T, file string) io.Reader {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestWARCImportBesideServe: on SQLite, an import in one transaction
// refuses while vigil serve holds the data directory (it would hold the
// daemon's writes for its whole length), naming the daemon and
// --keep-partial, and leaves the store as it was; --keep-partial imports
// record by record beside it.
func TestWARCImportBesideServe(t *testing.T) {
	dir := t.TempDir()
	file := writeForeignWARC(t, true, pages("2026-01-01T00:00:00Z", "http://example.com/a")...)
	if _, errOut, code := runCmd(t, nil, "import", "warc", "--data", dir, file); code != exitOK {
		t.Fatalf("first import: exit %d\n%s", code, errOut)
	}
	release, err := lockDataDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	before := storeState(t, openFlags(t, []string{"--data", dir}))
	second := writeForeignWARC(t, true, pages("2026-02-01T00:00:00Z", "http://example.com/a", "http://example.com/b")...)
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dir, second)
	if code != exitError || !strings.Contains(errOut, "vigil serve (pid ") || !strings.Contains(errOut, "--keep-partial") {
		t.Errorf("import beside a daemon: exit %d\n%s", code, errOut)
	}
	if after := storeState(t, openFlags(t, []string{"--data", dir})); after != before {
		t.Errorf("the store changed:\nbefore\n%s\nafter\n%s", before, after)
	}
	if _, errOut, code := runCmd(t, nil, "import", "warc", "--keep-partial", "--data", dir, second); code != exitOK || !strings.Contains(errOut, "imported 2 versions;") {
		t.Errorf("import --keep-partial beside a daemon: exit %d\n%s", code, errOut)
	}
}
