package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestSentinelAddNothingToAdd: sentinel add checks every file before it
// touches the store, and makes nothing when no sentinel can be added: no
// store in a new data directory, no account for a new --owner; a file it
// cannot read stops it before anything is added. It made the store and
// the owner first, so that a mistyped --data or --owner, or files that
// all failed, left a store or an account behind. When some sentinels can
// be added, they are, and the problems of the others are printed (exit 1).
func TestSentinelAddNothingToAdd(t *testing.T) {
	dir := t.TempDir()
	empty := writeFile(t, dir, "empty.ssl", "")
	syntax := writeFile(t, dir, "syntax.ssl", "Create Sentinel\n")
	unknown := writeFile(t, dir, "unknown.ssl", "Create Sentinel a Using nowhere\n")
	data := filepath.Join(t.TempDir(), "data")
	code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, empty, syntax, unknown)
	want := empty + ": no sentinel: expected Create Sentinel\n" +
		syntax + ":1:16: expected sentinel name, found end of file\n" +
		unknown + ":1:25: unknown sentinel nowhere\n"
	if code != exitChanged || out != want || errOut != "" {
		t.Errorf("no file to add: exit %d, stdout %q, stderr %q; want 1 and %q", code, out, errOut, want)
	}
	if _, err := os.Stat(data); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no file to add: %s was made (%v)", data, err)
	}

	good := writeFile(t, dir, "good.ssl", "Create Sentinel one Using http://a.example/\n")
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, good); code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	// A new owner has no sentinels: another owner's one is unknown to it.
	uses := writeFile(t, dir, "uses.ssl", "Create Sentinel two Using one\n")
	want = unknown + ":1:25: unknown sentinel nowhere\n" + uses + ":1:27: unknown sentinel one\n"
	if code, out, _ := runVigil(t, "", "sentinel", "add", "--data", data, "--owner", "new@example.org", unknown, uses); code != exitChanged || out != want {
		t.Errorf("a new owner's sentinels that fail: exit %d, stdout %q; want 1 and %q", code, out, want)
	}
	missing := filepath.Join(dir, "missing.ssl")
	second := writeFile(t, dir, "second.ssl", "Create Sentinel second Using http://b.example/\n")
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, second, missing); code != exitError || out != "" || !strings.Contains(errOut, "missing.ssl") {
		t.Errorf("a file missing: exit %d, stdout %q, stderr %q; want 2, nothing added", code, out, errOut)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if u, err := st.FindUserByEmail(ctx, "new@example.org"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("the new owner: %v, %v; want no account made", u, err)
	}
	sens, _, err := st.FindSentinels(ctx, vigil.SentinelFilter{})
	if err != nil || len(sens) != 1 || sens[0].Name != "one" {
		t.Errorf("sentinels %v, %v; want one alone", sens, err)
	}
}
