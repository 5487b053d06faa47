package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// runVigil runs the command line in-process and returns the exit code and
// what was written to standard output and standard error.
func runVigil(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &environment{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	code := run(context.Background(), env, args)
	return code, stdout.String(), stderr.String()
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const jill = `# Jill's sentinels (scenarios 1 and 3 of the WebVigiL thesis)
Create Sentinel s1 Using http://www.uta.edu/class/schedule
Monitor keyword (5331, 5324)
Fetch 1 day
From 12/02/02 To 01/02/03
Notify By email jill@aol.com Every best effort
Compare pairwise
`

func TestSentinelCheck(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.ssl", jill)
	more := writeFile(t, dir, "more.ssl", "Create Sentinel s3 Using s1\n\tMonitor phrase (“Optical Network”)\nCreate Sentinel s4 Using s1 Monitor all words OR any change\n")
	bad := writeFile(t, dir, "bad.ssl", "Create Sentinel s5 Using http://a.example\n\tMonitor all links AND NOT any change\n\tCompare every 1\n")
	syntax := writeFile(t, dir, "syntax.ssl", "Create Sentinel s6 Using http://a.example\n\tFetch 3 year\n")

	t.Run("valid files share one owner", func(t *testing.T) {
		code, out, errOut := runVigil(t, "", "sentinel", "check", "-now", "11/01/2002", good, more)
		if code != exitOK || errOut != "" {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
		}
		if want := more + ":3:37: warning: all words OR any change is the same as any change"; !strings.HasPrefix(out, want) {
			t.Errorf("stdout %q, want prefix %q", out, want)
		}
	})
	t.Run("semantic errors", func(t *testing.T) {
		code, out, _ := runVigil(t, "", "sentinel", "check", "-now", "11/01/2002", bad)
		want := bad + ":2:24: change type \"all links AND NOT any change\" is not valid as a change to all links would trigger the change type any change, so the sentinel could never fire\n" +
			bad + ":3:16: Compare every 1: n must be at least 2 (n = 1 is pairwise)\n"
		if code != exitChanged || out != want {
			t.Errorf("exit %d\nstdout %q\nwant   %q", code, out, want)
		}
	})
	t.Run("syntax errors", func(t *testing.T) {
		code, out, _ := runVigil(t, "", "sentinel", "check", syntax)
		if code != exitChanged || out != syntax+":2:10: unknown time unit \"year\" (want second, minute, hour, day, week or month)\n" {
			t.Errorf("exit %d, stdout %q", code, out)
		}
	})
	t.Run("selector columns count characters", func(t *testing.T) {
		for sel, want := range map[string]string{
			`css "ééé >> x"`:    `:2:28: invalid css selector "ééé >> x"`,
			`css “p >> q”`:      `:2:26: invalid css selector "p >> q"`,
			`css "p >> q"`:      `:2:26: invalid css selector "p >> q"`,
			`xpath "//é/@@x"`:   `:2:30: invalid xpath selector "//é/@@x"`,
			`css "\u00e9 >> x"`: `:2:31: invalid css selector "é >> x"`,
		} {
			f := writeFile(t, dir, "sel.ssl", "Create Sentinel s Using http://a.example\nMonitor value In "+sel+" changes\n")
			code, out, _ := runVigil(t, "", "sentinel", "check", f)
			if code != exitChanged || !strings.HasPrefix(out, f+want) {
				t.Errorf("%s: exit %d, stdout %q, want prefix %q", sel, code, out, f+want)
			}
		}
	})
	t.Run("interval too long to count", func(t *testing.T) {
		f := writeFile(t, dir, "long.ssl", "Create Sentinel s Using http://a.example\nFetch 1 hour\nConfirm after 20000 week\n")
		code, out, _ := runVigil(t, "", "sentinel", "check", f)
		if want := f + ":3:15: Confirm after 20000 weeks is longer than Vigil can count (about 292 years)\n"; code != exitChanged || out != want {
			t.Errorf("exit %d, stdout %q, want %q", code, out, want)
		}
	})
	// A host DNS refuses, which no fetch can reach, was taken.
	t.Run("host DNS refuses", func(t *testing.T) {
		long := strings.Repeat("a", 64)
		f := writeFile(t, dir, "host.ssl", "Create Sentinel s Using http://a..example/\nCreate Sentinel t\n  Using site https://bücher.example/ scope https://"+long+".example/\nCreate Sentinel u Using http://a.example./ OR http://[::1]:8080/\n")
		code, out, _ := runVigil(t, "", "sentinel", "check", f)
		want := f + `:1:25: invalid URL "http://a..example/": host "a..example" has an empty label` + "\n" +
			f + `:3:44: site scope: invalid URL "https://` + long[:32] + `"...: host "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"... has a label of 64 bytes: DNS takes at most 63` + "\n"
		if code != exitChanged || out != want {
			t.Errorf("exit %d\nstdout %q\nwant   %q", code, out, want)
		}
	})
	// A URL of 30 MB passed; one longer than spec.MaxURL is refused,
	// naming its length, not the URL.
	t.Run("URL too long", func(t *testing.T) {
		url := "http://a.example/" + strings.Repeat("a", 30<<20)
		f := writeFile(t, dir, "longurl.ssl", "Create Sentinel s\n  Using "+url+"\n")
		code, out, _ := runVigil(t, "", "sentinel", "check", f)
		want := f + fmt.Sprintf(":2:9: URL of %d bytes: want at most 8000\n", len(url))
		if code != exitChanged || out != want {
			t.Errorf("exit %d\nstdout %.300q\nwant   %q", code, out, want)
		}
	})
	// A chat URL the library refuses is told in Vigil's words, its token
	// hidden, where the library's were shown with the token in them; a
	// chat URL longer than spec.MaxURL is refused naming its length; an
	// email address with a display name is named as written, where
	// "Bob: x@y.org" was named "Bob:xxxxx@y.org".
	t.Run("notify contacts", func(t *testing.T) {
		long := "ntfy://a.example/" + strings.Repeat("a", 8000)
		f := writeFile(t, dir, "contacts.ssl", "Create Sentinel s Using http://a.example/\n"+
			"Notify By ntfy://ntfy.example.org/tpc?token=tk1S3CRET, \""+long+"\", email \"Bob: x@y.org\", email \"mailto:u:s3cret@y.org\"\n")
		code, out, _ := runVigil(t, "", "sentinel", "check", f)
		want := f + `:2:11: chat URL "ntfy://ntfy.example.org/***?token=***": ntfy takes no query parameter "token" (it takes actions, at, attach, cache, click, delay, disabletls, disabletlsverification, email, filename, firebase, icon, in, priority, scheme, tags, title)` + "\n" +
			f + fmt.Sprintf(":2:56: chat URL of %d bytes: want at most 8000\n", len(long)) +
			f + `:2:8077: invalid email address "Bob: x@y.org"` + "\n" +
			f + `:2:8099: invalid email address "mailto:u:xxxxx@y.org"` + "\n"
		if code != exitChanged || out != want || strings.Contains(out, "S3CRET") || strings.Contains(out, "s3cret") {
			t.Errorf("exit %d\nstdout %.2000q\nwant   %q", code, out, want)
		}
	})
	t.Run("lapsed start", func(t *testing.T) {
		code, out, _ := runVigil(t, "", "sentinel", "check", "-now", "2003-06-01T12:00:00Z", good)
		if code != exitChanged || !strings.Contains(out, good+":5:6: From 12/02/2002 has passed (12/02/2002 00:00 UTC is before now, 06/01/2003 12:00 UTC): write a later time, or From Now to start at once") {
			t.Errorf("exit %d, stdout %q", code, out)
		}
	})
	// A binary file gave an error a line (11,672 for 3 MB); a text file
	// full of mistakes gives MaxErrors of them and "too many errors".
	t.Run("binary file", func(t *testing.T) {
		data := bytes.Repeat([]byte("\x7fELF\x02\x01\x01\x00\xff\xfe$\n"), 100000)
		f := filepath.Join(dir, "a.out")
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, _ := runVigil(t, "", "sentinel", "check", f)
		if want := f + ":1:8: not text: byte 0x00 (a sentinel file is UTF-8 text)\n"; code != exitChanged || out != want {
			t.Errorf("exit %d, stdout %.300q, want %q", code, out, want)
		}
	})
	t.Run("too many errors", func(t *testing.T) {
		f := writeFile(t, dir, "junk.ssl", strings.Repeat("$ not a sentinel\n", 50000))
		code, out, _ := runVigil(t, "", "sentinel", "check", f)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != exitChanged || len(lines) != 11 || lines[0] != f+":1:1: illegal character '$'" || lines[10] != f+":11:1: too many errors" {
			t.Errorf("exit %d, %d lines, stdout %.600q", code, len(lines), out)
		}
	})
	t.Run("unreadable file", func(t *testing.T) {
		code, out, errOut := runVigil(t, "", "sentinel", "check", "-now", "11/01/2002", filepath.Join(dir, "missing.ssl"), good)
		if code != exitError || out != "" || !strings.Contains(errOut, "missing.ssl") {
			t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
	t.Run("json", func(t *testing.T) {
		code, out, _ := runVigil(t, "", "sentinel", "check", "-json", "-now", "11/01/2002", good)
		var v map[string]any
		if code != exitOK || json.Unmarshal([]byte(out), &v) != nil || v["name"] != "s1" || v["start"] != "2002-12-02T00:00:00Z" {
			t.Errorf("exit %d, stdout %q", code, out)
		}
	})
	t.Run("stdin", func(t *testing.T) {
		code, out, _ := runVigil(t, jill, "sentinel", "check", "-now", "11/01/2002", "-")
		if code != exitOK || out != "" {
			t.Errorf("exit %d, stdout %q", code, out)
		}
	})
	t.Run("usage", func(t *testing.T) {
		if code, _, errOut := runVigil(t, "", "sentinel", "check"); code != exitError || !strings.Contains(errOut, "Usage: vigil sentinel check") {
			t.Errorf("no files: exit %d, stderr %q", code, errOut)
		}
		if code, _, _ := runVigil(t, "", "sentinel", "check", "-now", "yesterday", good); code != exitError {
			t.Errorf("bad -now: exit %d", code)
		}
		if code, _, _ := runVigil(t, "", "sentinel", "check", "-bogus", good); code != exitError {
			t.Errorf("bad flag: exit %d", code)
		}
		// The owner's address is the Notify clause of the sentinels
		// without one: it was taken as it came, as add refuses it.
		if code, out, errOut := runVigil(t, "", "sentinel", "check", "-now", "11/01/2002", "-owner", "not-an-email", good); code != exitError || out != "" ||
			errOut != "vigil sentinel check: --owner: invalid email address \"not-an-email\"\n" {
			t.Errorf("bad -owner: exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
}

// TestSentinelCheckFlagErrors: a bad --now, --tz or --owner is named with
// two dashes, as every other command names its flags; check wrote -now,
// -tz and -owner.
func TestSentinelCheckFlagErrors(t *testing.T) {
	good := writeFile(t, t.TempDir(), "good.ssl", "Create Sentinel one Using http://a.example/\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--now", "yesterday"}, `--now "yesterday": want RFC 3339, MM/DD/YYYY HH:MM or MM/DD/YYYY`},
		// The first instant of year 1 is the checker's "no time
		// given": it told the file, at 1:1, "checker has no current
		// time (Checker.Now)".
		{[]string{"--now", "0001-01-01T00:00:00Z"}, `--now "0001-01-01T00:00:00Z": want a time after 0001-01-01T00:00:00Z`},
		{[]string{"--now", "01/01/0000"}, `--now "01/01/0000": want a time after 0001-01-01T00:00:00Z`},
		{[]string{"--tz", "Mars/Olympus"}, `--tz "Mars/Olympus": "Mars/Olympus" is not an IANA time zone name; want an IANA name such as Europe/Paris, or UTC`},
		{[]string{"--owner", "not-an-email"}, `--owner: invalid email address "not-an-email"`},
	} {
		code, out, errOut := runVigil(t, "", append(append([]string{"sentinel", "check"}, c.args...), good)...)
		if want := "vigil sentinel check: " + c.want + "\n"; code != exitError || out != "" || errOut != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errOut, want)
		}
	}
}

func TestSentinelFmt(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.ssl", jill)
	want := "# Jill's sentinels (scenarios 1 and 3 of the WebVigiL thesis)\n" +
		"Create Sentinel s1 Using http://www.uta.edu/class/schedule\n\tMonitor keywords {5331, 5324}\n\tFetch 1 day\n" +
		"\tFrom 12/02/2002 To 01/02/2003\n\tNotify By email jill@aol.com\n\tEvery best effort\n\tCompare pairwise\n"
	code, out, errOut := runVigil(t, "", "sentinel", "fmt", good)
	if code != exitOK || out != want || errOut != "" {
		t.Fatalf("exit %d\nstdout %q\nwant   %q\nstderr %q", code, out, want, errOut)
	}
	// The canonical form is a fixed point.
	if code, again, _ := runVigil(t, out, "sentinel", "fmt", "-"); code != exitOK || again != out {
		t.Errorf("fmt of the canonical form: exit %d, %q", code, again)
	}
	// -w rewrites the file.
	if code, out, _ := runVigil(t, "", "sentinel", "fmt", "-w", good); code != exitOK || out != "" {
		t.Errorf("-w: exit %d, stdout %q", code, out)
	}
	if data, _ := os.ReadFile(good); string(data) != want {
		t.Errorf("-w wrote %q", data)
	}
	bad := writeFile(t, dir, "bad.ssl", "Create Sentinel x Using\n")
	if code, out, errOut := runVigil(t, "", "sentinel", "fmt", bad); code != exitChanged || out != "" || errOut != bad+":1:24: expected URL or sentinel name, found end of file\n" {
		t.Errorf("syntax error: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// A file without a sentinel is refused as check refuses it: it was
	// printed back (nothing, or its comments) with exit status 0.
	for _, src := range []string{"", "# a comment\n"} {
		empty := writeFile(t, dir, "empty.ssl", src)
		if code, out, errOut := runVigil(t, "", "sentinel", "fmt", "-w", empty); code != exitChanged || out != "" || errOut != empty+":1:1: no sentinel: expected Create Sentinel\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", src, code, out, errOut)
		}
		if data, _ := os.ReadFile(empty); string(data) != src {
			t.Errorf("%q: -w wrote %q", src, data)
		}
	}
	if code, _, _ := runVigil(t, "", "sentinel", "fmt", filepath.Join(dir, "none.ssl")); code != exitError {
		t.Errorf("unreadable: exit %d", code)
	}
}

// TestSentinelFmtSymlink: -w on a symbolic link rewrites the file it
// points to, keeping the link and the file's mode; it replaced the link
// with a formatted copy, leaving the file it pointed to as it was.
func TestSentinelFmtSymlink(t *testing.T) {
	dir := t.TempDir()
	real := writeFile(t, dir, "real.ssl", "Create Sentinel x Using a.example monitor all links\n")
	if err := os.Chmod(real, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.ssl")
	if err := os.Symlink("real.ssl", link); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runVigil(t, "", "sentinel", "fmt", "-w", link); code != exitOK || out != "" || errOut != "" {
		t.Fatalf("-w: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symbolic link (%v)", link, err)
	}
	want := "Create Sentinel x Using a.example\n\tMonitor all links\n"
	if data, _ := os.ReadFile(real); string(data) != want {
		t.Errorf("the file linked to holds %q, want %q", data, want)
	}
	if info, err := os.Stat(real); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("mode of %s: %v (%v), want 0600", real, info.Mode(), err)
	}
}

// TestSentinelRm: a name names the owner's sentinel only (it removed every
// owner's of that name), and a sentinel others use is kept until they are
// removed.
func TestSentinelRm(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	add := func(owner, src string) {
		t.Helper()
		if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, "--owner", owner, writeFile(t, dir, "s.ssl", src)); code != exitOK {
			t.Fatalf("add %s: exit %d\n%s%s", src, code, out, errOut)
		}
	}
	names := func() string {
		t.Helper()
		_, out, _ := runVigil(t, "", "sentinel", "list", "--data", data, "--json")
		var got []string
		for line := range strings.Lines(out) {
			var s struct {
				Name    string `json:"name"`
				OwnerID int64  `json:"ownerId"`
			}
			if err := json.Unmarshal([]byte(line), &s); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			got = append(got, fmt.Sprintf("%s/%d", s.Name, s.OwnerID))
		}
		slices.Sort(got)
		return strings.Join(got, " ")
	}
	add("ann@example.test", "Create Sentinel dup Using http://a.example\nCreate Sentinel kid Using dup Fetch 1 day")
	add("bob@example.test", "Create Sentinel dup Using http://b.example")
	before := names()
	// A name no sentinel of the owner has, but another owner's does: the
	// message says whose, and how to name it.
	code, _, errOut := runVigil(t, "", "sentinel", "rm", "--data", data, "--owner", "cy@example.test", "kid")
	if want := "cy@example.test has no sentinel kid; ann@example.test has one: give its id, 2, or --owner ann@example.test"; code != exitChanged || !strings.Contains(errOut, want) || names() != before {
		t.Errorf("rm of another owner's sentinel by name: exit %d, %q; want %q", code, errOut, want)
	}
	if _, out, _ := runVigil(t, "", "sentinel", "list", "--data", data); !strings.Contains(out, "OWNER") || strings.Count(out, "ann@example.test") != 2 || !strings.Contains(out, "bob@example.test") {
		t.Errorf("list does not say whose each sentinel is:\n%s", out)
	}

	code, _, errOut = runVigil(t, "", "sentinel", "rm", "--data", data, "--owner", "ann@example.test", "dup")
	if code != exitChanged || !strings.Contains(errOut, "used by kid; edit or remove it first") || names() != before {
		t.Errorf("rm of a used sentinel: exit %d, %q; left %s, want %s", code, errOut, names(), before)
	}
	if code, _, errOut := runVigil(t, "", "sentinel", "rm", "--data", data, "--owner", "bob@example.test", "dup"); code != exitOK {
		t.Errorf("rm of bob's dup: exit %d, %s", code, errOut)
	}
	if got := names(); strings.Count(got, "dup/") != 1 || !strings.Contains(got, "kid/") {
		t.Errorf("after rm of bob's dup: %s, want ann's dup and kid", got)
	}
	if code, _, errOut := runVigil(t, "", "sentinel", "rm", "--data", data, "--owner", "ann@example.test", "kid", "dup"); code != exitOK {
		t.Errorf("rm kid dup: exit %d, %s", code, errOut)
	}
	if got := names(); got != "" {
		t.Errorf("left after removing everything: %q", got)
	}
}

// TestSentinelAddDependsOnBad: add, as check does, tells a sentinel that
// uses one with errors (or refers to its events) that this one has
// errors; it said "unknown sentinel p1" of a p1 written just above, and
// adds the others, naming those it does not add.
func TestSentinelAddDependsOnBad(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "dep.ssl", "Create Sentinel p1 Using http://a.example\n\tMonitor keywords {\"a b\"}\n"+
		"Create Sentinel p2 Using p1\n"+
		"Create Sentinel p3 Using http://b.example\n\tFrom end(p1)\n"+
		"Create Sentinel p4 Using http://c.example\n")
	want := f + ":2:20: keyword \"a b\" has several words: use phrase {\"a b\"}\n" +
		f + ":3:26: sentinel p1 has errors\n" +
		f + ":5:11: sentinel p1 has errors\n"
	code, out, errOut := runVigil(t, "", "sentinel", "check", f)
	if code != exitChanged || out != want {
		t.Errorf("check: exit %d, stdout %q, stderr %q\nwant %q", code, out, errOut, want)
	}
	// Add names the sentinels of the file it does not add.
	want += f + ":1:17: sentinel p1 not added: it has problems\n" +
		f + ":3:17: sentinel p2 not added: it has problems\n" +
		f + ":4:17: sentinel p3 not added: it has problems\n"
	code, out, errOut = runVigil(t, "", "sentinel", "add", "--data", filepath.Join(dir, "data"), f)
	got, added, _ := strings.Cut(out, "added sentinel ")
	if code != exitChanged || got != want || !strings.HasPrefix(added, "1 p4 feed ") {
		t.Errorf("add: exit %d, stdout %q, stderr %q\nwant %q and p4 added", code, out, errOut, want)
	}
}

// TestSentinelFeed: sentinel feed prints the feed paths add printed, and
// --rotate replaces them with others, kept in the store (the old ones are
// refused by the server: TestWebFeedRotation); a name the owner has no
// sentinel of is an error that names the sentinel.
func TestSentinelFeed(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, "--owner", "ann@example.test",
		writeFile(t, dir, "s.ssl", "Create Sentinel news Using http://a.example"))
	if code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	_, added, ok := strings.Cut(strings.TrimSpace(out), " feed ")
	if !ok {
		t.Fatalf("add printed no feed: %q", out)
	}
	paths := func(args ...string) (atom, rss string) {
		t.Helper()
		code, out, errOut := runVigil(t, "", append([]string{"sentinel", "feed", "--data", data, "--owner", "ann@example.test"}, args...)...)
		f := strings.Fields(out)
		if code != exitOK || len(f) != 7 || f[0] != "sentinel" || f[2] != "news" || f[3] != "atom" || f[5] != "rss" {
			t.Fatalf("sentinel feed %v: exit %d, %q %q", args, code, out, errOut)
		}
		return f[4], f[6]
	}
	atom, rss := paths("news")
	if atom != added || rss != strings.TrimSuffix(added, "atom.xml")+"rss.xml" {
		t.Errorf("feed paths %s %s, want those add printed, %s", atom, rss, added)
	}
	if by, _ := paths("1"); by != atom {
		t.Errorf("by id: %s, want %s", by, atom)
	}
	rotated, _ := paths("--rotate", "news")
	if rotated == atom {
		t.Errorf("--rotate kept the feed path %s", atom)
	}
	if again, _ := paths("news"); again != rotated {
		t.Errorf("after --rotate: %s, want the new path %s", again, rotated)
	}
	code, _, errOut = runVigil(t, "", "sentinel", "feed", "--data", data, "--owner", "bob@example.test", "--rotate", "news")
	if want := "bob@example.test has no sentinel news; ann@example.test has one"; code != exitChanged || !strings.Contains(errOut, want) {
		t.Errorf("another owner's name: exit %d, %q; want %d and %q", code, errOut, exitChanged, want)
	}
	if again, _ := paths("news"); again != rotated {
		t.Errorf("a refused rotation changed the path: %s, want %s", again, rotated)
	}
	// Without the daemon's secret (a --data that is not the daemon's,
	// with --postgres), nothing is rotated or printed, and no secret is
	// made: the paths made with a new one are never served.
	secret := filepath.Join(data, "secret")
	if err := os.Rename(secret, secret+".away"); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runVigil(t, "", "sentinel", "feed", "--data", data, "--owner", "ann@example.test", "--rotate", "news")
	if code != exitError || out != "" || !strings.Contains(errOut, "no secret file in "+data) {
		t.Errorf("without the secret: exit %d, %q %q; want %d and the file named", code, out, errOut, exitError)
	}
	if _, err := os.Stat(secret); err == nil {
		t.Errorf("sentinel feed made a secret in %s", data)
	}
	if err := os.Rename(secret+".away", secret); err != nil {
		t.Fatal(err)
	}
	if again, _ := paths("news"); again != rotated {
		t.Errorf("a rotation without the secret changed the path: %s, want %s", again, rotated)
	}
}

// TestMissingStore: the commands that only read or remove refuse a data
// directory without a store, and leave none there; they listed, removed
// from and exported an empty store they made, so a mistyped --data looked
// like a store without sentinels or history (exit 0).
func TestMissingStore(t *testing.T) {
	for _, args := range [][]string{
		{"sentinel", "list"},
		{"sentinel", "list", "--json"},
		{"sentinel", "rm", "news"},
		{"sentinel", "feed", "news"},
		{"export", "warc", "--all"},
		{"export", "warc", "--resource", "http://example.com/"},
	} {
		data := filepath.Join(t.TempDir(), "vigil-dta")
		code, out, errOut := runVigil(t, "", append(args, "--data", data)...)
		if code != exitError || out != "" || !strings.Contains(errOut, "no store in "+data) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and no store in %s", args, code, out, errOut, exitError, data)
		}
		if _, err := os.Stat(data); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%q: %s was made (%v)", args, data, err)
		}
	}
	// The commands that write make the store.
	data := filepath.Join(t.TempDir(), "new")
	src := "Create Sentinel news Using https://example.com/ Monitor any change Fetch 1 day\n"
	if code, _, errOut := runVigil(t, src, "sentinel", "add", "--data", data, "-"); code != exitOK {
		t.Fatalf("sentinel add into a new directory: exit %d, %s", code, errOut)
	}
	if code, out, errOut := runVigil(t, "", "sentinel", "list", "--data", data); code != exitOK || !strings.Contains(out, "news") {
		t.Errorf("sentinel list after add: exit %d, %q, %s", code, out, errOut)
	}
}

// TestSentinelAddNoSentinel: a file that holds no sentinel (empty, or
// comments only: the wrong file) is a problem for sentinel add, as it is
// for the API ("no sentinel: expected Create Sentinel"); add said nothing
// and exited 0, so that nothing added looked like success. The other
// files are still added.
func TestSentinelAddNoSentinel(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	empty := writeFile(t, dir, "empty.ssl", "")
	comments := writeFile(t, dir, "notes.ssl", "# to watch: the shop\n")
	good := writeFile(t, dir, "good.ssl", "Create Sentinel one Using http://a.example/\n")
	code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, empty, comments, good)
	want := empty + ":1:1: no sentinel: expected Create Sentinel\n" +
		comments + ":1:1: no sentinel: expected Create Sentinel\n"
	if code != exitChanged || !strings.HasPrefix(out, want) || !strings.Contains(out, "added sentinel 1 one feed ") || withoutNewStoreNote(errOut) != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and stdout beginning %q, then one added", code, out, errOut, want)
	}
}

// TestSentinelListPaused: a paused sentinel has no next check in the
// list, as on the dashboard ("paused"); the list gave the stored date,
// which passed with nothing checked.
func TestSentinelListPaused(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, writeFile(t, dir, "s.ssl", "Create Sentinel held Using http://a.example/\nCreate Sentinel going Using http://b.example/\n")); code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	sens, _, err := st.FindSentinels(ctx, vigil.SentinelFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sens {
		if s.Name == "held" {
			s.Status = vigil.SentinelPaused
			if err := st.UpdateSentinel(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	st.Close()
	code, out, errOut := runVigil(t, "", "sentinel", "list", "--data", data)
	if code != exitOK {
		t.Fatalf("list: exit %d\n%s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// The times are UTC, and the header says so.
	if !strings.Contains(lines[0], "LAST CHECK (UTC)") || !strings.Contains(lines[0], "NEXT CHECK (UTC)") {
		t.Errorf("header %q does not say its times are UTC", lines[0])
	}
	header := strings.Fields(lines[0])
	col := slices.Index(header, "NEXT") // NEXT CHECK (UTC), after LAST CHECK (UTC)'s three words
	if col < 0 || len(lines) != 3 {
		t.Fatalf("no NEXT CHECK column, or not two sentinels:\n%s", out)
	}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		// The columns before are one word each: LAST CHECK is "-", as
		// neither was checked, where the header has three.
		next := f[col-2]
		switch f[2] {
		case "held":
			if f[4] != "paused" || next != "-" {
				t.Errorf("line %q: want paused, with - as its next check", l)
			}
		case "going":
			if f[4] != "active" || next == "-" {
				t.Errorf("line %q: want active, with a next check", l)
			}
		}
	}
}

// TestSentinelListTarget: list says which sentinels watch a whole site and
// which watch pages, in its table and in its JSON lines; a site sentinel
// could not be told from a page sentinel.
func TestSentinelListTarget(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	src := "Create Sentinel docs Using site http://docs.example/guide/ depth 1\n" +
		"Create Sentinel one Using http://a.example/\n" +
		"Create Sentinel both Using http://a.example/x AND http://b.example/\n"
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, writeFile(t, dir, "s.ssl", src)); code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runVigil(t, "", "sentinel", "list", "--data", data)
	if code != exitOK {
		t.Fatalf("list: exit %d\n%s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	header := strings.Fields(lines[0])
	col := slices.Index(header, "TARGET")
	if col < 0 {
		t.Fatalf("no TARGET column:\n%s", out)
	}
	want := map[string]string{"docs": "site", "one": "page", "both": "page"}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) <= col || want[f[2]] != f[col] { // the columns before it are one word each
			t.Errorf("line %q: want target %s", l, want[f[2]])
		}
	}
	_, out, _ = runVigil(t, "", "sentinel", "list", "--data", data, "--json")
	got := map[string]string{}
	for line := range strings.Lines(out) {
		var s struct {
			Name   string `json:"name"`
			Target string `json:"target"`
			Spec   any    `json:"spec"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil || s.Spec == nil {
			t.Fatalf("%v: %s", err, line)
		}
		got[s.Name] = s.Target
	}
	if !maps.Equal(got, want) {
		t.Errorf("--json targets %v, want %v", got, want)
	}
	if code, help, _ := runVigil(t, "", "sentinel", "list", "-h"); code != exitOK || !strings.Contains(help, "TARGET") || !strings.Contains(help, `"target" (page or site)`) {
		t.Errorf("-h does not tell of the target: %s", help)
	}
}
