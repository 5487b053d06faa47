//go:build linux

package sqlite_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// closeChildEnv names the data directory of a child process that closes
// its store on a file system that takes no more bytes.
const closeChildEnv = "VIGIL_SQLITE_CLOSE_CHILD"

// closeBodySize is the body the child stores: incompressible, so that
// its pages are in the write-ahead log, past the end of the database
// file, when the store is closed (under the 1000 pages that checkpoint
// on their own).
const closeBodySize = 1 << 20

// closeChild stores a version, then lets the process write no file past
// the database file's present size (as a full disk would: Go ignores
// SIGXFSZ, so the writes fail with EFBIG) and closes the store, printing
// "close: " and the error Close returned.
func closeChild(dir string) {
	ctx := context.Background()
	fail := func(err error) { fmt.Println("child:", err); os.Exit(1) }
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		fail(err)
	}
	codec, err := zstd.New(0)
	if err != nil {
		fail(err)
	}
	w, err := warehouse.New(db, warehouse.Options{Codec: codec})
	if err != nil {
		fail(err)
	}
	body := make([]byte, closeBodySize)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range body {
		body[i] = byte(rng.IntN(256))
	}
	if _, err := w.Put(ctx, &warehouse.Fetch{URL: "http://full.example/", FetchedAt: time.Unix(1e9, 0), Status: 200,
		ContentType: "application/octet-stream", Body: body}); err != nil {
		fail(err)
	}
	fi, err := os.Stat(filepath.Join(dir, sqlite.FileName))
	if err != nil {
		fail(err)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		fail(err)
	}
	lim.Cur = uint64(fi.Size())
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		fail(err)
	}
	fmt.Printf("close: %v\n", db.Close())
}

// TestCloseReportsCheckpointFailure: a store closed when its file cannot
// grow (a full disk) says that the checkpoint of its write-ahead log
// failed, which file, and that nothing is lost; the error was dropped.
// The store opened again holds what was written.
func TestCloseReportsCheckpointFailure(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), closeChildEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	got := strings.TrimSpace(string(out))
	path := filepath.Join(dir, sqlite.FileName)
	for _, want := range []string{"close: sqlite at " + path + ": close: checkpoint", "disk I/O error", "nothing is lost"} {
		if !strings.Contains(got, want) {
			t.Errorf("Close on a full file system: %q, want it to say %q", got, want)
		}
	}
	db, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.FindResourceByURL(context.Background(), "http://full.example/")
	if err != nil {
		t.Fatalf("the version written before the failed close: %v", err)
	}
	v, err := db.LatestVersion(context.Background(), res.ID)
	if err != nil || v.Size != closeBodySize {
		t.Fatalf("the version written before the failed close: %+v, %v", v, err)
	}
}
