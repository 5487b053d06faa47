package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// storedByEarlierRelease are sentinels as the release before the NOT rule
// and the case-insensitive comparing of operands stored them (the JSON
// form of their spec.Checked), with the page each watches.
var storedByEarlierRelease = []struct {
	name, url, monitor string
}{
	{"notalone", "http://a.example/1", `{"not":{"kind":"keywords","args":["x"]}}`},
	{"ornot", "http://a.example/2", `{"or":[{"kind":"all links"},{"not":{"kind":"all images"}}]}`},
	{"casedistinct", "http://a.example/3", `{"or":[{"kind":"keywords","args":["Price"]},{"kind":"keywords","args":["price"]}]}`},
	{"casesubsumed", "http://a.example/4", `{"and":[{"kind":"keywords","args":["sale"]},{"not":{"kind":"keywords","args":["Sale","offer"]}}]}`},
}

// storedSpec is the spec of a sentinel named name watching url with the
// Monitor expression monitor (JSON), as sentinel add stored it.
func storedSpec(name, url, monitor string) json.RawMessage {
	return json.RawMessage(`{"name":"` + name + `","using":{"url":"` + url + `"},"monitor":` + monitor +
		`,"fetch":{"onChange":true},"from":{"now":true},"to":{"now":true,"offsets":["12 months"]},"every":"interactive","compare":"pairwise",` +
		`"defaulted":["Fetch","From","To","Every","Compare"],"urls":["` + url + `"],"start":"2026-11-01T12:00:00Z","end":"2027-11-01T12:00:00Z"}`)
}

// TestSentinelStoredUnderEarlierRules: a sentinel stored by the release
// before a Monitor rule that refuses its expression (a NOT that narrows
// nothing, operands that differ only in case) is still the owner's:
// sentinel list shows its page, sentinel add refuses a second of its name
// as not unique, and a sentinel may use it. Its spec no longer decoded,
// so list showed no URL, add took a second sentinel of the name and Using
// it said "unknown sentinel".
func TestSentinelStoredUnderEarlierRules(t *testing.T) {
	stores := []struct {
		name  string
		flags func(t *testing.T) (data, dsn string)
	}{
		{"sqlite", func(t *testing.T) (string, string) { return filepath.Join(t.TempDir(), "data"), "" }},
		{"postgres", func(t *testing.T) (string, string) { return t.TempDir(), postgresDSN(t) }},
	}
	const owner = "ann@example.org"
	for _, s := range stores {
		t.Run(s.name, func(t *testing.T) {
			data, dsn := s.flags(t)
			store := []string{"--data", data}
			if dsn != "" {
				store = append(store, "--postgres", dsn)
			}
			// A sentinel added now makes the store, its owner and its
			// key, as that release did.
			first := writeFile(t, t.TempDir(), "first.ssl", "Create Sentinel first Using http://z.example/\n")
			if code, out, errOut := runVigil(t, "", append(append([]string{"sentinel", "add", "--owner", owner}, store...), first)...); code != exitOK {
				t.Fatalf("add first: exit %d\n%s%s", code, out, errOut)
			}
			ctx := context.Background()
			st, err := openStore(ctx, data, dsn)
			if err != nil {
				t.Fatal(err)
			}
			u, err := findOwner(ctx, st, owner)
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now().UTC()
			for _, o := range storedByEarlierRelease {
				sen := &vigil.Sentinel{OwnerID: u.ID, Name: o.name, Source: "Create Sentinel " + o.name + " Using " + o.url,
					Spec: storedSpec(o.name, o.url, o.monitor), Status: vigil.SentinelActive, NextCheck: now}
				if err := st.CreateSentinel(ctx, sen); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}

			code, out, errOut := runVigil(t, "", append([]string{"sentinel", "list"}, store...)...)
			if code != exitOK {
				t.Fatalf("list: exit %d\n%s%s", code, out, errOut)
			}
			for _, o := range storedByEarlierRelease {
				if !listed(out, o.name, o.url) {
					t.Errorf("list does not show %s with its page %s:\n%s", o.name, o.url, out)
				}
			}
			dir := t.TempDir()
			for _, o := range storedByEarlierRelease {
				dup := writeFile(t, dir, o.name+".ssl", "Create Sentinel "+o.name+" Using http://b.example/\n")
				code, out, errOut := runVigil(t, "", append(append([]string{"sentinel", "add", "--owner", owner}, store...), dup)...)
				want := dup + ":1:17: sentinel name " + o.name + " is taken: your sentinel " + o.name + " has it; choose another name\n"
				if code != exitChanged || out != want || errOut != "" {
					t.Errorf("add a second %s: exit %d, stdout %q, stderr %q; want %d and %q", o.name, code, out, errOut, exitChanged, want)
				}
				uses := writeFile(t, dir, "uses-"+o.name+".ssl", "Create Sentinel uses-"+o.name+" Using "+o.name+"\n")
				code, out, errOut = runVigil(t, "", append(append([]string{"sentinel", "add", "--owner", owner}, store...), uses)...)
				if code != exitOK || !strings.HasPrefix(out, "added sentinel ") || errOut != "" {
					t.Errorf("add a sentinel using %s: exit %d, stdout %q, stderr %q; want it added", o.name, code, out, errOut)
				}
			}
			_, out, _ = runVigil(t, "", append([]string{"sentinel", "list"}, store...)...)
			for _, o := range storedByEarlierRelease {
				if !listed(out, "uses-"+o.name, o.url) {
					t.Errorf("list does not show uses-%s with the page of %s, %s:\n%s", o.name, o.name, o.url, out)
				}
			}
		})
	}
}

// listed reports whether the table sentinel list printed has a line for
// the sentinel name ending in its page url.
func listed(table, name, url string) bool {
	for _, l := range strings.Split(table, "\n") {
		f := strings.Fields(l)
		if len(f) > 3 && f[2] == name && f[len(f)-1] == url {
			return true
		}
	}
	return false
}

// TestSentinelStoredUnreadable: a stored sentinel whose spec does not
// decode (a change type this release does not know) is still the owner's,
// and said to be unreadable where it is met: sentinel add refuses a
// second of its name as not unique and one that uses it, saying why, and
// sentinel list shows its page and, below the table, why it cannot be
// read. storedChecker skipped it, so add took a second sentinel of the
// name and said "unknown sentinel lost" of Using it, and list showed
// nothing.
func TestSentinelStoredUnreadable(t *testing.T) {
	const owner = "ann@example.org"
	data := filepath.Join(t.TempDir(), "data")
	store := []string{"--data", data}
	dir := t.TempDir()
	first := writeFile(t, dir, "first.ssl", "Create Sentinel first Using http://z.example/\n")
	if code, out, errOut := runVigil(t, "", append(append([]string{"sentinel", "add", "--owner", owner}, store...), first)...); code != exitOK {
		t.Fatalf("add first: exit %d\n%s%s", code, out, errOut)
	}
	ctx := context.Background()
	st, err := openStore(ctx, data, "")
	if err != nil {
		t.Fatal(err)
	}
	u, err := findOwner(ctx, st, owner)
	if err != nil {
		t.Fatal(err)
	}
	sen := &vigil.Sentinel{OwnerID: u.ID, Name: "lost", Source: "Create Sentinel lost Using http://a.example/5",
		Spec: storedSpec("lost", "http://a.example/5", `{"kind":"most words"}`), Status: vigil.SentinelActive, NextCheck: time.Now().UTC()}
	if err := st.CreateSentinel(ctx, sen); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	const why = `monitor.kind: unknown change type "most words": want one of any change, all links, all images, all words, keywords, phrase, table, list, regular expression, value`
	dup := writeFile(t, dir, "dup.ssl", "Create Sentinel Lost Using http://b.example/\n")
	uses := writeFile(t, dir, "uses.ssl", "Create Sentinel uses Using lost\n")
	for _, c := range []struct{ file, want string }{
		{dup, dup + ":1:17: sentinel name Lost is taken: another of your sentinels has it, whose stored form cannot be read (" + why + "); choose another name\n"},
		{uses, uses + ":1:28: sentinel lost cannot be read from the store: " + why + "\n"},
	} {
		code, out, errOut := runVigil(t, "", append(append([]string{"sentinel", "add", "--owner", owner}, store...), c.file)...)
		if code != exitChanged || out != c.want || errOut != "" {
			t.Errorf("add %s: exit %d, stdout %q, stderr %q; want %d and %q", filepath.Base(c.file), code, out, errOut, exitChanged, c.want)
		}
	}
	code, out, errOut := runVigil(t, "", append([]string{"sentinel", "list"}, store...)...)
	if code != exitOK || !listed(out, "lost", "http://a.example/5") || !strings.HasSuffix(out, "\nlost: its stored form cannot be read, so it is not checked: "+why+"\n") {
		t.Errorf("list: exit %d, stderr %q, stdout:\n%s\nwant lost with its page and, below, why it cannot be read", code, errOut, out)
	}
}
