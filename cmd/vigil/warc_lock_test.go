package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// TestWARCImportHoldsDataDir: on SQLite, an import in one transaction
// holds the data directory's import lock from its start to its end, so
// that a vigil serve started meanwhile (whose writes its transaction
// would hold past their busy timeout) and a second import, --keep-partial
// or not, refuse, naming it; it refused only a daemon already running.
// Once it ends, both start.
func TestWARCImportHoldsDataDir(t *testing.T) {
	dir := t.TempDir()
	file := writeForeignWARC(t, true, pages("2026-01-01T00:00:00Z", "http://example.com/a", "http://example.com/b")...)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	defer pr.Close()
	var out, errOut strings.Builder
	env := &environment{stdin: pr, stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() { done <- run(context.Background(), env, []string{"import", "warc", "--data", dir, "-"}) }()
	// Read by the import: it has started.
	if _, err := pw.Write(data[:10]); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("vigil import warc (pid %d) is importing into the data directory %s", os.Getpid(), dir)
	if err := importHeld(dir); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("during an import, importHeld: %v; want %q", err, want)
	}
	other := writeForeignWARC(t, true, pages("2026-02-01T00:00:00Z", "http://example.com/c")...)
	if _, e, code := runCmd(t, nil, "import", "warc", "--data", dir, other); code != exitError || !strings.Contains(e, want) {
		t.Errorf("a second import during the first: exit %d\n%s", code, e)
	}
	if _, e, code := runCmd(t, nil, "import", "warc", "--keep-partial", "--data", dir, other); code != exitError || !strings.Contains(e, want) {
		t.Errorf("an import --keep-partial during the first: exit %d\n%s", code, e)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var serveErr strings.Builder
	serveEnv := &environment{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &serveErr, getenv: func(string) string { return "" }}
	if code := run(ctx, serveEnv, []string{"serve", "--data", dir, "--addr", "127.0.0.1:0"}); code != exitError || !strings.Contains(serveErr.String(), want) {
		t.Errorf("vigil serve during an import: exit %d\n%s", code, serveErr.String())
	}
	if _, err := pw.Write(data[10:]); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if code := <-done; code != exitOK || !strings.Contains(errOut.String(), "imported 2 versions;") {
		t.Errorf("the import: exit %d\n%s", code, errOut.String())
	}
	if err := importHeld(dir); err != nil {
		t.Errorf("after the import, importHeld: %v", err)
	}
	if _, e, code := runCmd(t, nil, "import", "warc", "--data", dir, other); code != exitOK {
		t.Errorf("an import after the first: exit %d\n%s", code, e)
	}
}
