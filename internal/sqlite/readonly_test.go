package sqlite_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// readOnlyError is the start of the error of a write to the store at
// path that this DB may not write.
func readOnlyError(path string) string { return "the store at " + path + " is read-only" }

// TestWriteThroughOpenCurrent: a write through a DB OpenCurrent opened
// (mode=ro, whoever runs the test) says that the store is read-only, and
// where it is. It said "attempt to write a readonly database (8)".
func TestWriteThroughOpenCurrent(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	currentStore(t, dir)
	db, err := sqlite.OpenCurrent(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	path := filepath.Join(dir, sqlite.FileName)
	for _, tc := range []struct {
		name  string
		write func() error
	}{
		{"a write", func() error { _, err := db.EnsureResource(ctx, "http://example.com/new"); return err }},
		{"a transaction", func() error {
			return db.InTransaction(ctx, func(st vigil.TxStore) error {
				_, err := st.EnsureResource(ctx, "http://example.com/new")
				return err
			})
		}},
	} {
		err := tc.write()
		if err == nil || !strings.HasPrefix(err.Error(), readOnlyError(path)) {
			t.Errorf("%s through OpenCurrent: %v; want it to begin %q", tc.name, err, readOnlyError(path))
		}
	}
}

// asNobody runs the test, when it runs as root (whom a read-only mode
// does not stop), as nobody (uid 65534) in a process of a copy of the
// test binary, fails it if that process does not pass it, and reports
// whether it did so: the test then returns. As another user it reports
// false: the test runs here.
func asNobody(t *testing.T) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		return false
	}
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	// nobody must reach the binary and a directory to make its own in.
	dir := t.TempDir()
	bin := filepath.Join(dir, "sqlite.test")
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{tmp, dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-test.run", "^"+t.Name()+"$", "-test.count", "1", "-test.v")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) || strings.Contains(string(out), "--- SKIP") {
		t.Errorf("%s as nobody: %v\n%s", t.Name(), err, out)
	}
	return true
}

// readOnlyDir makes dir and the files in it read-only for this user (not
// root: asNobody) until the test ends.
func readOnlyDir(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() == 0 {
		t.Fatal("readOnlyDir as root, whom a read-only mode does not stop: run the test asNobody")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Chmod(filepath.Join(dir, e.Name()), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
}

// dirNames lists dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestReadOnlyDirectory: a copy of a store in a directory this user may
// not write (a backup inspected), in WAL mode with no -shm file, is read
// through OpenCurrent and through Open, which make nothing there, and a
// write through either says the store is read-only. Both failed: a
// reader that may not write a WAL database needs its -shm file, which no
// one may make there.
func TestReadOnlyDirectory(t *testing.T) {
	if asNobody(t) {
		return
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		open func(ctx context.Context, dir string) (*sqlite.DB, error)
	}{
		{"OpenCurrent", sqlite.OpenCurrent},
		{"Open", sqlite.Open},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			currentStore(t, dir)
			readOnlyDir(t, dir)
			before := dirNames(t, dir)
			db, err := tc.open(ctx, dir)
			if err != nil {
				t.Fatalf("%s of a read-only copy: %v", tc.name, err)
			}
			if !db.ReadOnly() {
				t.Errorf("%s of a read-only copy: ReadOnly() = false, want true (vigil serve refuses it)", tc.name)
			}
			if _, err := db.FindResourceByURL(ctx, "http://example.com/"); err != nil {
				t.Errorf("read: %v", err)
			}
			path := filepath.Join(dir, sqlite.FileName)
			if _, err := db.EnsureResource(ctx, "http://example.com/new"); err == nil || !strings.HasPrefix(err.Error(), readOnlyError(path)) {
				t.Errorf("write: %v; want it to begin %q", err, readOnlyError(path))
			}
			if err := db.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if after := dirNames(t, dir); !slices.Equal(after, before) {
				t.Errorf("files after: %v; want %v, as before", after, before)
			}
		})
	}
}

// TestReadOnlyDirectoryUncheckpointed: a read-only copy of a store
// whose -wal file holds commits not yet in vigil.db, and no -shm file,
// is refused, saying so and what to do, by OpenCurrent and Open: a
// reader that may not make the -shm file could only read vigil.db
// without those commits.
func TestReadOnlyDirectoryUncheckpointed(t *testing.T) {
	if asNobody(t) {
		return
	}
	ctx := context.Background()
	src := t.TempDir()
	w, err := sqlite.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.EnsureResource(ctx, "http://example.com/"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{sqlite.FileName, sqlite.FileName + "-wal"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if name != sqlite.FileName && len(b) == 0 {
			t.Fatalf("%s is empty: want the writer's commits in it", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	readOnlyDir(t, dir)
	for _, tc := range []struct {
		name string
		open func(ctx context.Context, dir string) (*sqlite.DB, error)
	}{
		{"OpenCurrent", sqlite.OpenCurrent},
		{"Open", sqlite.Open},
	} {
		db, err := tc.open(ctx, dir)
		if err == nil {
			db.Close()
			t.Errorf("%s opened a read-only copy whose %s-wal it cannot read", tc.name, sqlite.FileName)
			continue
		}
		for _, want := range []string{sqlite.FileName + "-wal", "copy the store to a directory"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v; want it to say %q", tc.name, err, want)
			}
		}
	}
}
