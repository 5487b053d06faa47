//go:build linux

package main

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestImportWARCReportsStoreClose: vigil import warc, its disk taking no
// more bytes when it closes the store, says that the store's last
// checkpoint failed, and that nothing is lost, and fails; it said
// nothing and exited 0, as every command but vigil serve did. The store
// opened again holds what was imported.
func TestImportWARCReportsStoreClose(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	src, dst := t.TempDir(), t.TempDir()
	fill(t, src)
	out, errOut, code := runCmd(t, nil, "export", "warc", "--all", "--data", src)
	if code != exitOK {
		t.Fatalf("export: %d %s", code, errOut)
	}
	file := filepath.Join(t.TempDir(), "in.warc.gz")
	if err := os.WriteFile(file, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	// The store made and closed, its file whole and larger than the
	// import's write-ahead log will be (a page of 2 MB stored): the
	// import writes the log, and its close checkpoints the log into the
	// file, past its present size.
	db, err := sqlite.Open(context.Background(), dst)
	if err != nil {
		t.Fatal(err)
	}
	wh, err := openWarehouse(db, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 2<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range big {
		big[i] = byte(rng.IntN(256))
	}
	if _, err := wh.Put(context.Background(), &warehouse.Fetch{URL: "http://big.example/", FetchedAt: time.Unix(1e9, 0), Status: 200,
		ContentType: "application/octet-stream", Body: big}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dst, sqlite.FileName)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(vigilBinary(t), "import", "warc", "--data", dst, file)
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	limitFileSize(t, cmd.Process.Pid, uint64(fi.Size()))
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitError {
		t.Errorf("vigil import warc exited %d, want %d:\n%s", code, exitError, stderr.String())
	}
	for _, want := range []string{"imported 6 versions", "vigil import warc: sqlite at " + path + ": close: checkpoint of its write-ahead log", "disk I/O error", "nothing is lost"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("vigil import warc does not say %q:\n%s", want, stderr.String())
		}
	}
	if got := dump(t, dst); len(got) != 4 {
		t.Errorf("the store opened again holds %d resources, want the 3 imported and the one before", len(got))
	}
}
