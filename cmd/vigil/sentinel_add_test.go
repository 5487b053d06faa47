package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/spec"
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
	want := empty + ":1:1: no sentinel: expected Create Sentinel\n" +
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

// TestSentinelAddSyntaxErrorOfOne: a syntax error in one sentinel of a file
// is that sentinel's problem, as a check error is: the file's other
// sentinels are added, the error printed (exit 1). It made the whole file
// fail, so that a typo in one clause kept every sentinel of its file out.
// A sentinel past the error that stopped the parser ("too many errors")
// is not known to be clean and is not added.
func TestSentinelAddSyntaxErrorOfOne(t *testing.T) {
	tooMany := "Create Sentinel many Using http://m.example/\n" + strings.Repeat("Monitor frob\n", 11) +
		"Create Sentinel after Using http://n.example/\nMonitor frob\n"
	for _, tc := range []struct {
		name, src string
		added     []string
		out       []string // lines of stdout, each after the file's name
	}{
		{
			name:  "the second of three",
			src:   "Create Sentinel a Using http://a.example/\nCreate Sentinel b Using http://b.example/\n\tMonitor value In css \".price\" frobs\nCreate Sentinel c Using http://c.example/\n",
			added: []string{"a", "c"},
			out:   []string{`:3:32: expected value condition (changes, increases, decreases, rises above N, falls below N), found "frobs"`},
		},
		{
			name:  "a mistyped Create before the first",
			src:   "Craete Sentinel x Using http://x.example/\nCreate Sentinel a Using http://a.example/\n",
			added: []string{"a"},
			out:   []string{`:1:1: expected Create Sentinel, found "Craete"`},
		},
		{
			name:  "one that uses the sentinel with the error",
			src:   "Create Sentinel b Using http://b.example/ Monitor frob\nCreate Sentinel c Using b\nCreate Sentinel d Using http://d.example/\n",
			added: []string{"d"},
		},
		{
			name: "past too many errors",
			src:  tooMany,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := writeFile(t, dir, "s.ssl", tc.src)
			data := filepath.Join(dir, "data")
			code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, file)
			if code != exitChanged || withoutNewStoreNote(errOut) != "" {
				t.Errorf("exit %d, stderr %q; want 1 and nothing\n%s", code, errOut, out)
			}
			for _, line := range tc.out {
				if !strings.Contains(out, file+line+"\n") {
					t.Errorf("stdout %q, want the line %q", out, file+line)
				}
			}
			var added []string
			for _, line := range strings.Split(out, "\n") {
				if f := strings.Fields(line); len(f) > 3 && f[0] == "added" {
					added = append(added, f[3])
				}
			}
			if strings.Join(added, " ") != strings.Join(tc.added, " ") {
				t.Errorf("added %q, want %q\n%s", added, tc.added, out)
			}
		})
	}
}

// TestSyntaxFaultsUnplaced: an error without a position cannot be told to
// be of one sentinel: no sentinel of the file is taken for clean.
func TestSyntaxFaultsUnplaced(t *testing.T) {
	f, err := spec.Parse("s.ssl", []byte("Create Sentinel a Using http://a.example/\nCreate Sentinel b Using http://b.example/ Monitor frob\n"))
	if err == nil {
		t.Fatal("no syntax error")
	}
	if faulty, ok := syntaxFaults(f, err); !ok || !slices.Equal(faulty, []bool{false, true}) {
		t.Fatalf("placed: %v, %v; want [false true], true", faulty, ok)
	}
	unplaced := spec.ErrorList{{Msg: "something of the file"}}
	if faulty, ok := syntaxFaults(f, unplaced); ok {
		t.Errorf("unplaced: %v, ok; want none clean", faulty)
	}
}

// TestSentinelAddUsesFaultyFile: a sentinel that uses one of an earlier
// file in which no sentinel parsed is told that one has errors, as check
// tells it, and the other sentinels are added. Add dropped such a file
// before its sentinels were told to the checker, so that it said "unknown
// sentinel a" of the a just written.
func TestSentinelAddUsesFaultyFile(t *testing.T) {
	dir := t.TempDir()
	one := writeFile(t, dir, "one.ssl", "Create Sentinel a Using http://a.example/ Fetch every 2 hours\n")
	two := writeFile(t, dir, "two.ssl", "Create Sentinel b Using a\nCreate Sentinel c Using http://c.example/\n")
	want := one + ":1:49: \"every\" does not go after Fetch: write the interval alone, as in Fetch 2 hours\n" +
		two + ":1:25: sentinel a has errors\n"
	for _, cmd := range []string{"check", "add"} {
		args, wantOut := []string{"sentinel", cmd, one, two}, want
		if cmd == "add" {
			args = []string{"sentinel", "add", "--data", filepath.Join(dir, "data"), one, two}
			wantOut += two + ":1:17: sentinel b not added: it has problems\n"
		}
		code, out, errOut := runVigil(t, "", args...)
		got, added, _ := strings.Cut(out, "added sentinel ")
		if code != exitChanged || got != wantOut || withoutNewStoreNote(errOut) != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q\nwant 1 and %q", cmd, code, out, errOut, wantOut)
		}
		if cmd == "add" && !strings.HasPrefix(added, "1 c feed ") {
			t.Errorf("add: stdout %q, want c added", out)
		}
	}
}

// TestSentinelAddFaultyFilesOnly: files none of whose sentinels parsed
// have nothing to add, and add does not read the store for them: their
// syntax errors are printed (exit 1), as before such files were kept for
// the checker, where a store that cannot be read (here, a data directory
// whose store is no database) made it exit 2 with the store's error.
func TestSentinelAddFaultyFilesOnly(t *testing.T) {
	dir := t.TempDir()
	one := writeFile(t, dir, "one.ssl", "Create Sentinel a Using http://a.example/\n  Fetch 3\n")
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, data, sqlite.FileName, "not a database")
	want := one + ":2:10: expected time unit (second, minute, hour, day, week or month), found end of file\n"
	code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, one)
	if code != exitChanged || out != want || withoutNewStoreNote(errOut) != "" {
		t.Errorf("exit %d, stdout %q, stderr %q\nwant 1 and %q", code, out, errOut, want)
	}
}

// TestSentinelAddMisspeltHeader: a sentinel whose header is misspelt
// but gives its name is known by it to add as to check: one that uses
// it is told that it has errors, not that it is unknown, and the others
// are added.
func TestSentinelAddMisspeltHeader(t *testing.T) {
	dir := t.TempDir()
	one := writeFile(t, dir, "one.ssl", "Create Sentinal a Using http://a.example/\nCreate Sentinel b Using a\nCreate Sentinel c Using http://c.example/\n")
	want := one + ":1:8: expected Sentinel, found \"Sentinal\"\n" + one + ":2:25: sentinel a has errors\n" +
		one + ":1:17: sentinel a not added: it has problems\n" + one + ":2:17: sentinel b not added: it has problems\n"
	code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", filepath.Join(dir, "data"), one)
	got, added, _ := strings.Cut(out, "added sentinel ")
	if code != exitChanged || got != want || withoutNewStoreNote(errOut) != "" || !strings.HasPrefix(added, "1 c feed ") {
		t.Errorf("exit %d, stdout %q, stderr %q\nwant 1, %q and c added", code, out, errOut, want)
	}
}
