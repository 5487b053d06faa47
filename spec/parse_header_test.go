package spec

import (
	"strings"
	"testing"
)

// TestHeaderNameRecovered: a header with a syntax error that gives the
// sentinel's name all the same (a misspelt or missing Sentinel, a
// misspelt Create, a quoted name, a misspelt Using after the name) is
// parsed with the name, the syntax error reported as before, and the
// rest of the sentinel read; one that gives no name (the misspelt
// keyword before Using, a reserved word, a quoted title) has none. The
// parser read the name only when the header was right up to it.
func TestHeaderNameRecovered(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // the names of the sentinels, "" for none
		err       string   // the first error
	}{
		{"misspelt Sentinel", "Create Sentinal b Using http://b.example/ Fetch 1 hour", []string{"b"}, `h.ssl:1:8: expected Sentinel, found "Sentinal"`},
		{"Sentinel in lower case misspelt", "Create sentinal b Using http://b.example/", []string{"b"}, `h.ssl:1:8: expected Sentinel, found "sentinal"`},
		{"Sentinel missing", "Create b Using http://b.example/", []string{"b"}, `h.ssl:1:8: expected Sentinel, found "b"`},
		{"Sentinel misspelt, no name", "Create Sentinal Using http://b.example/", []string{""}, `h.ssl:1:8: expected Sentinel, found "Sentinal"`},
		{"Sentinels, no name", "Create Sentinels Using http://b.example/", []string{""}, `h.ssl:1:8: expected Sentinel, found "Sentinels"`},
		{"two words, no Using", "Create Sentinal b Usin http://b.example/", []string{""}, `h.ssl:1:8: expected Sentinel, found "Sentinal"`},
		{"three words", "Create Sentinal my b Using http://b.example/", []string{""}, `h.ssl:1:8: expected Sentinel, found "Sentinal"`},
		{"a number for Sentinel", "Create 1 b Using http://b.example/", []string{""}, `h.ssl:1:8: expected Sentinel, found "1"`},
		{"misspelt Create first", "Crate Sentinel b Using http://b.example/", []string{"b"}, `h.ssl:1:1: expected Create Sentinel, found "Crate"`},
		{"misspelt Create after a sentinel", "Create Sentinel a Using http://a.example/\nCrate Sentinel b Using http://b.example/\nCreate Sentinel c Using b", []string{"a", "b", "c"}, `h.ssl:2:1: expected Create Sentinel, found "Crate"`},
		{"junk, no Using after it", "Crate Sentinal x\nCreate Sentinel a Using http://a.example/", []string{"a"}, `h.ssl:1:1: expected Create Sentinel, found "Crate Sentinal": write Create Sentinel`},
		{"both misspelt", "Crate Sentinal b Using http://b.example/", []string{"b"}, `h.ssl:1:1: expected Create Sentinel, found "Crate Sentinal": write Create Sentinel`},
		{"both misspelt after a sentinel", "Create Sentinel a Using http://a.example/\ncreat sentinl b Using a", []string{"a", "b"}, `h.ssl:2:1: expected Create Sentinel, found "creat sentinl": write Create Sentinel`},
		{"junk, no Sentinel after it", "Frobnicate x\nCreate Sentinel a Using http://a.example/", []string{"a"}, `h.ssl:1:1: expected Create Sentinel, found "Frobnicate"`},
		{"a misspelt clause", "Create Sentinel a Using http://a.example/\nMonitr any change", []string{"a"}, `h.ssl:2:1: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "Monitr": write Monitor`},
		{"quoted name", `Create Sentinel "b" Using http://b.example/`, []string{"b"}, `h.ssl:1:17: expected sentinel name, found "b": a name is one word, unquoted, as in b`},
		{"quoted title", `Create Sentinel "my shop" Using http://b.example/`, []string{""}, `h.ssl:1:17: expected sentinel name, found "my shop": a name is one word, unquoted, as in my-shop`},
		{"reserved word", "Create Sentinel Monitor Using http://b.example/", []string{""}, `h.ssl:1:17: expected sentinel name, found reserved word "Monitor"`},
		{"Using misspelt", "Create Sentinel b Usin http://b.example/", []string{"b"}, `h.ssl:1:19: expected Using, found "Usin": write Using`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("h.ssl", []byte(tc.src))
			list, ok := err.(ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %v, want a list", err)
			}
			if got := list[0].Error(); got != tc.err {
				t.Errorf("error %q, want %q", got, tc.err)
			}
			var names []string
			for _, s := range f.Sentinels {
				n := ""
				if s.Name != nil {
					n = s.Name.Name
				}
				names = append(names, n)
			}
			if strings.Join(names, ",") != strings.Join(tc.want, ",") || len(names) != len(tc.want) {
				t.Errorf("names %q, want %q", names, tc.want)
			}
		})
	}
}

// TestHeaderRestRead: once the name of a misspelt header is read, the
// rest of the sentinel is too, its Using clause and its clauses.
func TestHeaderRestRead(t *testing.T) {
	f, err := Parse("h.ssl", []byte("Create Sentinal b Using http://b.example/ Fetch 1 hour\nCrate Sentinel c Using b Compare pairwise"))
	if err == nil {
		t.Fatal("want errors")
	}
	if len(f.Sentinels) != 2 {
		t.Fatalf("%d sentinels, want 2", len(f.Sentinels))
	}
	b, c := f.Sentinels[0], f.Sentinels[1]
	if _, ok := b.Target.(*URLTarget); !ok || b.Fetch == nil || b.Fetch.Interval.Duration != (Duration{1, Hour}) {
		t.Errorf("b: target %v, fetch %v", b.Target, b.Fetch)
	}
	if st, ok := c.Target.(*SentinelTarget); !ok || st.Name.Name != "b" || c.Compare == nil || c.Create.Line != 2 || c.Create.Column != 1 {
		t.Errorf("c: target %v, compare %v, at %v", c.Target, c.Compare, c.Create)
	}
}

// TestMisspeltSentinel: the words taken for Sentinel misspelt, which are
// not read as a name, and those that are names.
func TestMisspeltSentinel(t *testing.T) {
	for word, want := range map[string]bool{
		"Sentinal": true, "sentinels": true, "Sentnel": true, "SENTINL": true, "Sentinelss": true,
		"b": false, "shop": false, "Sentry": false, "Sentinelsss": false, "sentinel-a": false, "sentinel1": false, "": false,
	} {
		if got := misspeltSentinel(word); got != want {
			t.Errorf("misspeltSentinel(%q) = %v, want %v", word, got, want)
		}
	}
}
