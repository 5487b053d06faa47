package main

import (
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warc"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// heldCommitStore holds its transactions open once their function has
// returned, before they commit: it says so on inside and waits for
// release.
type heldCommitStore struct {
	vigil.Store
	inside, release chan struct{}
}

func (s *heldCommitStore) InTransaction(ctx context.Context, fn func(tx vigil.TxStore) error) error {
	return s.Store.(vigil.Transactor).InTransaction(ctx, func(tx vigil.TxStore) error {
		if err := fn(tx); err != nil {
			return err
		}
		s.inside <- struct{}{}
		<-s.release
		return nil
	})
}

// TestBackupDuringImport: vigil backup run while an import warc in one
// transaction holds the SQLite store (its lock file, SQLite's write lock,
// and its versions written but not committed, past the page cache and so
// into the -wal file) writes a copy of the store as it was before the
// import, whole (integrity_check), without what the import wrote, and
// says so, naming the import: it said only that the copy was written,
// as though it held the import's versions. The import then commits all
// of them in the store, none in the copy.
func TestBackupDuringImport(t *testing.T) {
	dir := t.TempDir()
	before := writeForeignWARC(t, true, pages("2026-01-01T00:00:00Z", "http://example.com/a", "http://example.com/b")...)
	if _, e, code := runCmd(t, nil, "import", "warc", "--data", dir, before); code != exitOK {
		t.Fatalf("the first import: exit %d\n%s", code, e)
	}

	// The import, as runImport runs it, held before its commit.
	release, err := lockImport(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	st, err := openStore(context.Background(), dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	held := &heldCommitStore{Store: st, inside: make(chan struct{}), release: make(chan struct{})}
	wh, err := openWarehouse(held, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Pages of incompressible bodies, more than SQLite's page cache
	// holds: what the import writes goes to the -wal file uncommitted.
	rnd := rand.New(rand.NewPCG(1, 2))
	var recs []foreignRecord
	for i := range 150 {
		b := make([]byte, 24<<10)
		for j := range b {
			b[j] = byte(rnd.Uint32())
		}
		u := fmt.Sprintf("http://example.com/%d", i)
		if i < 2 {
			u = "http://example.com/" + string(rune('a'+i)) // new versions of the first pages
		}
		recs = append(recs, foreignRecord{typ: warc.TypeResponse, uri: u, date: "2026-02-01T00:00:00Z",
			block: httpResponse("Content-Type: text/plain\r\n", base64.StdEncoding.EncodeToString(b))})
	}
	file := writeForeignWARC(t, true, recs...)
	type result struct {
		n   int
		err error
	}
	imported := make(chan result, 1)
	go func() {
		n, _, err := importWARC(context.Background(), wh, file, openT(t, file), warcImportOptions{verify: true}, io.Discard)
		imported <- result{n, err}
	}()
	select {
	case <-held.inside:
	case r := <-imported:
		t.Fatalf("the import ended before its commit: %d, %v", r.n, r.err)
	}
	if fi, err := os.Stat(filepath.Join(dir, sqlite.FileName+"-wal")); err != nil || fi.Size() < 1<<20 {
		t.Errorf("the import's -wal file: %v, %v; want its versions in it", fi, err)
	}

	out := filepath.Join(t.TempDir(), "vigil-backup.db")
	said, e, code := runCmd(t, nil, "backup", "--data", dir, out)
	if code != exitOK {
		t.Errorf("vigil backup during an import: exit %d\n%s%s", code, said, e)
	}
	want := fmt.Sprintf("vigil import warc (pid %d) is importing into the data directory %s", os.Getpid(), dir)
	if !strings.Contains(said, want) || !strings.Contains(said, "the copy holds the store as it was before that import") {
		t.Errorf("vigil backup during an import says:\n%s\nwant it to name the import (%q) and say the copy is of the store before it", said, want)
	}

	close(held.release)
	if r := <-imported; r.err != nil || r.n != 150 {
		t.Fatalf("the import: %d, %v; want 150 versions", r.n, r.err)
	}
	ctx := context.Background()
	if s, err := st.Stats(ctx); err != nil || s.Versions != 152 {
		t.Errorf("the store after the import: %+v, %v; want 152 versions", s, err)
	}

	restored := t.TempDir()
	if err := os.Rename(out, filepath.Join(restored, sqlite.FileName)); err != nil {
		t.Fatalf("no backup: %v", err)
	}
	raw, err := sql.Open("sqlite", "file:"+filepath.Join(restored, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var integrity string
	if err := raw.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Errorf("integrity of the backup: %q, %v", integrity, err)
	}
	raw.Close()
	copied, err := sqlite.Open(ctx, restored)
	if err != nil {
		t.Fatal(err)
	}
	defer copied.Close()
	if s, err := copied.Stats(ctx); err != nil || s.Versions != 2 {
		t.Errorf("the backup: %+v, %v; want the 2 versions of before the import", s, err)
	}
	for _, u := range []string{"http://example.com/a", "http://example.com/b"} {
		if _, v, err := copied.LatestVersionByURL(ctx, u); err != nil || v == nil || v.Seq != 1 {
			t.Errorf("%s in the backup: %+v, %v; want its version of before the import", u, v, err)
		}
	}
	if _, err := copied.FindResourceByURL(ctx, "http://example.com/2"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("a page of the import in the backup: %v; want ENOTFOUND", err)
	}
}
