package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSentinelCheckAgreesWithAdd: given the store (--data or --postgres),
// vigil sentinel check checks a file as vigil sentinel add would, against
// the owner's stored sentinels and their run-time status: it said
// "unknown sentinel shop" of a sentinel using one stored, which add
// added, and passed a name that add then refused as not unique. Without
// the store it says nothing of stored sentinels, as before. A file with
// no sentinel is a problem at its start, file:line:col as the help says,
// for both: check said nothing and exited 0, add gave no line:col.
func TestSentinelCheckAgreesWithAdd(t *testing.T) {
	dir := t.TempDir()
	uses := writeFile(t, dir, "uses.ssl", "Create Sentinel uses Using shop\n")
	during := writeFile(t, dir, "dur2.ssl", "Create Sentinel dur2 Using http://b.example/\n\tFrom during(shop)\n")
	dup := writeFile(t, dir, "dup.ssl", "Create Sentinel Shop Using http://c.example/\n")
	empty := writeFile(t, dir, "empty.ssl", "")
	shop := writeFile(t, dir, "shop.ssl", "Create Sentinel shop Using http://shop.example/ Monitor any change Every 1 day\n"+
		"Create Sentinel later Using http://later.example/ From Now + 1 day\n")
	duringLater := writeFile(t, dir, "dur3.ssl", "Create Sentinel dur3 Using http://b.example/\n\tFrom during(later)\n")
	stores := []struct {
		name  string
		flags func(t *testing.T) []string
	}{
		{"sqlite", func(t *testing.T) []string { return []string{"--data", filepath.Join(t.TempDir(), "data")} }},
		{"postgres", func(t *testing.T) []string { return []string{"--postgres", postgresDSN(t), "--data", t.TempDir()} }},
	}
	cases := []struct {
		name  string
		owner string
		file  string
		want  string
		exit  int
	}{
		{"uses a stored sentinel", "ann@example.org", uses, "", exitOK},
		// The stored sentinel has not run, but it started From Now when
		// it was added; one that starts later is refused, saying when.
		{"during a stored sentinel", "ann@example.org", during, "", exitOK},
		{"during a stored sentinel not started", "ann@example.org", duringLater, duringLater + ":2:7: start event is invalid: during(later) needs later to be active, but it has not started: it starts {time}; write From start(later) to start with it\n", exitChanged},
		{"name taken", "ann@example.org", dup, dup + ":1:17: sentinel name Shop is taken: your sentinel shop has it; choose another name\n", exitChanged},
		{"another owner's sentinel", "bob@example.org", uses, uses + ":1:28: unknown sentinel shop\n", exitChanged},
		{"no sentinel", "ann@example.org", empty, empty + ":1:1: no sentinel: expected Create Sentinel\n", exitChanged},
	}
	for _, s := range stores {
		t.Run(s.name, func(t *testing.T) {
			store := s.flags(t)
			if code, out, errOut := runVigil(t, "", append([]string{"sentinel", "add", "--owner", "ann@example.org"}, append(store, shop)...)...); code != exitOK {
				t.Fatalf("add shop: exit %d\n%s%s", code, out, errOut)
			}
			for _, c := range cases {
				args := append([]string{"--owner", c.owner}, append(store, c.file)...)
				code, out, errOut := runVigil(t, "", append([]string{"sentinel", "check"}, args...)...)
				if code != c.exit || !problemsAre(out, c.want) || errOut != "" {
					t.Errorf("%s: check: exit %d, stdout %q, stderr %q; want %d and %q", c.name, code, out, errOut, c.exit, c.want)
				}
				code, out, errOut = runVigil(t, "", append([]string{"sentinel", "add"}, args...)...)
				var problems []string
				for _, l := range strings.SplitAfter(out, "\n") {
					if !strings.HasPrefix(l, "added sentinel ") {
						problems = append(problems, l)
					}
				}
				if got := strings.Join(problems, ""); code != c.exit || !problemsAre(got, c.want) || errOut != "" {
					t.Errorf("%s: add: exit %d, problems %q, stderr %q; want %d and %q, as check says", c.name, code, got, errOut, c.exit, c.want)
				}
			}
		})
	}
	// Without the store, check knows no stored sentinel; its help says so.
	if code, out, _ := runVigil(t, "", "sentinel", "check", "--owner", "ann@example.org", uses); code != exitChanged || out != uses+":1:28: unknown sentinel shop\n" {
		t.Errorf("check without the store: exit %d, stdout %q; want 1 and unknown sentinel shop", code, out)
	}
	if code, out, errOut := runVigil(t, "", "sentinel", "check", empty); code != exitChanged || out != empty+":1:1: no sentinel: expected Create Sentinel\n" || errOut != "" {
		t.Errorf("check of an empty file without the store: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	_, help, _ := runVigil(t, "", "sentinel", "check", "-h")
	for _, w := range []string{"-data", "-postgres", "only with --data or --postgres"} {
		if !strings.Contains(help, w) {
			t.Errorf("check's help does not say %q:\n%s", w, help)
		}
	}
}

// problemsAre reports whether got is want, where want's {time} stands for
// a time as the language's messages write it (11/30/2026 19:25 UTC).
func problemsAre(got, want string) bool {
	pattern := strings.ReplaceAll(regexp.QuoteMeta(want), regexp.QuoteMeta("{time}"), `\d\d/\d\d/\d{4} \d\d:\d\d UTC`)
	return regexp.MustCompile(`\A` + pattern + `\z`).MatchString(got)
}
