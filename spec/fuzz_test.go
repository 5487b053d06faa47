package spec

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzParse checks that the parser never panics, that every error carries
// a valid position inside the input, and that an input that parses without
// error prints to a canonical form that parses back to the same syntax
// tree, checks without panicking and survives a JSON round trip.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.ssl"))
	scen, _ := filepath.Glob(filepath.Join("testdata", "scenarios", "*.ssl"))
	for _, file := range append(files, scen...) {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(string(src))
		}
	}
	for _, s := range []string{
		"",
		"Create Sentinel a Using http://a.example",
		"Create Sentinel a Using b Monitor NOT (all links OR all images) AND all words except {x}",
		`Create Sentinel v Using "http://a.example/(x)" Monitor value In css ".p" rises above -1.5 Ignore xpath "//a"`,
		"Create Sentinel d Using a.example From 1/2/03 10:30 + 1 month To end(x) + 2 week Compare moving4",
		"Create Sentinel n Using a.b Notify By slack://x, jill@aol.com, fax 1, PDA \"p\" Every 3 hour",
		"create sentinel x using y # comment\n monitor keywords:{\"a\\\"b\"}",
		"Create Sentinel \xff Using \"\\x",
		"Create Sentinel a Using http://a.example Monitor phrase (“a”) Fetch 1 hour render Confirm after 1 second",
		"# a\n\n# b\n\nCreate Sentinel a Using b # c\n  # d\n  Every 1 day # e\n  Monitor keywords {x, # f\n y} # g\n  # h\n\n  # i\n# j\n  # k\nCreate Sentinel # l\n b Using c\n\n\n# m\n",
		"Create Sentinel a Using b From 1/1/2030 # f\n# t\nTo 1/1/2031 # u\nFetch 1 hour",
		"Create Sentinel a Using b\n Monitor keywords {x} # k\n  # o\n  OR # p\n  NOT (table {t, # u\n v} AND\n # w\n list) # z\n # y\n Fetch 1 hour",
		"Create Sentinel a Using b Monitor # m\n value In # i\n css \".p\" # c\n rises above 3 # r\n Ignore css \"x\" # g\n",
		"Create Sentinel a Using http://a.example # u\n OR # o\n sentinel # s\n b\n AND (c # p\n OR d) # e\n Notify By email # k\n a@b.example, # c\n webhook https://h.example # w\n , slack://x # z\n",
		"Create Sentinel a Using site # s\n a.example # u\n scope a.example/x # x\n depth 2 # d\n match \"y\" # m\n pages # p\n 3 # e\n",
		"Create Sentinel a Using b Fetch # f\n 1 # n\n hour render From 1/1/30 # d\n 10:30 + # p\n 2 days # e\n # t\n To end( # x\n s) Every best # b\n effort Compare moving # m\n 4 Confirm after 1 # c\n minute\n",
		// Mistakes told how to write them: a second Using, a second
		// target without OR, dates and times as English writes them,
		// a title for a name, a string that swallows a sentinel.
		"Create Sentinel a Using b Using c Monitor any change\nCreate Sentinel d Using (\nMonitor any change Using e\n",
		"Create Sentinel a Using https://a.example/ \"https://b.example/\" From 2026-02-30 To 2026/03/01T9:30\n",
		"Create Sentinel my shop Using b From 12/01/2027 9:30 p.m. To 12/31/2027 23:59:59 Notify me@example.org\n",
		"Create Sentinel 1s Using b Monitor keywords {\"x Create Sentinel c Using d\nEvery immediately;\n",
		"Crate Sentinal b Using c Fetch every 0 hours Confirm 0 minutes Compare pairwise 2 From 31-12-2026\n",
		"Create Sentinel a Using b Monitor keywords {a} and {b} OR phrase {\"x\"; \"y\"}, {c}, table\nNotify a@b.example, https://c.example/, slack://x Notify By slack URL\n",
		"Create Sentinel a Using b Monitor all words except {a} AND (keywords {a}, phrase {\"x\"}), any links\n",
	} {
		f.Add(s)
	}
	now := time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse("fuzz.ssl", []byte(src))
		if file == nil {
			t.Fatal("Parse returned a nil File")
		}
		if err != nil {
			el, ok := err.(ErrorList)
			if !ok || len(el) == 0 {
				t.Fatalf("error %T %v, want a non-empty ErrorList", err, err)
			}
			for _, e := range el {
				p := e.Pos
				if p.Filename != "fuzz.ssl" || p.Line < 1 || p.Column < 1 || p.Offset < 0 || p.Offset > len(src) {
					t.Fatalf("error with an invalid position: %+v %q", p, e.Msg)
				}
			}
			// The checker must not panic on a partial tree either, nor
			// find a sentinel with syntax errors valid.
			// A sentinel whose text holds an error has syntax errors
			// (one at its Create may be the last one's: "expected
			// Sentinel, found "Create"").
			out, _ := NewChecker(now).CheckFile(file)
			for _, e := range el {
				for i, s := range file.Sentinels {
					in := e.Pos.Offset >= s.Create.Offset && (i+1 == len(file.Sentinels) || e.Pos.Offset < file.Sentinels[i+1].Create.Offset)
					atCreate := e.Pos.Offset == s.Create.Offset && i > 0 && file.Sentinels[i-1].HasSyntaxErrors()
					if e.Msg != TooManyErrors && in && !atCreate && !s.HasSyntaxErrors() {
						t.Fatalf("sentinel %d holds the error %v, and HasSyntaxErrors is false", i, e)
					}
				}
			}
			for i, s := range file.Sentinels {
				if s.HasSyntaxErrors() && out[i] != nil {
					t.Fatalf("sentinel %d has syntax errors and is valid", i)
				}
			}
			return
		}
		printed := Print(file)
		again, err := Parse("printed.ssl", []byte(printed))
		if err != nil {
			t.Fatalf("canonical form does not parse: %v\ninput:\n%q\nprinted:\n%s", err, src, printed)
		}
		if !equalModuloPos(file.Sentinels, again.Sentinels) {
			t.Fatalf("Parse(Print(x)) != x\ninput:\n%q\nprinted:\n%s\nreprinted:\n%s", src, printed, Print(again))
		}
		// The canonical form is a fixed point and keeps every comment.
		if reprinted := Print(again); reprinted != printed {
			t.Fatalf("Print(Parse(Print(x))) != Print(x)\ninput:\n%q\nprinted:\n%q\nreprinted:\n%q", src, printed, reprinted)
		}
		if got, want := commentTexts(again), commentTexts(file); !slices.Equal(got, want) {
			t.Fatalf("comments changed\ninput:\n%q\nprinted:\n%q\ngot  %q\nwant %q", src, printed, got, want)
		}
		NewChecker(now).CheckFile(file)
		for _, s := range file.Sentinels {
			data, err := json.Marshal(s)
			if err != nil {
				t.Fatalf("json.Marshal: %v", err)
			}
			back, _ := DecodeSentinel(data)
			if !equalModuloPos(s, back) {
				t.Fatalf("JSON round trip changed the sentinel:\n%s\n%s\n%s", Print(s), data, Print(back))
			}
		}
	})
}

// FuzzDecodeSentinel checks that the JSON decoder never panics, and that a
// document it accepts prints to a sentinel that parses back to the same
// tree.
func FuzzDecodeSentinel(f *testing.F) {
	for _, s := range []string{
		`{"name":"s1","using":{"url":"http://www.uta.edu/class/schedule"},"monitor":{"and":[{"kind":"keywords","args":["5331","5324"]},{"not":{"kind":"all links"}}]},"fetch":{"interval":"1 day"},"from":{"date":"2002-12-02","offsets":["1 day"]},"to":{"end":"s0"},"notify":[{"email":"jill@aol.com"}],"every":"best effort","compare":"moving 4"}`,
		`{"name":"v","using":{"or":[{"sentinel":"a"},{"url":"b.example"}]},"monitor":{"kind":"value","in":{"xpath":"//p"},"condition":{"op":"rises above","threshold":1e3}},"fetch":{"onChange":true,"render":true},"confirm":"30 second","from":{"during":"a"},"every":"2 week","compare":"pairwise"}`,
		`{"name":"x","using":{"url":"http://a.example"},"monitor":{"or":[{"kind":"all words","args":["a"],"ignore":[{"css":".ad"}]},{"kind":"table"}]},"notify":[{"chat":"slack://a/b"},{"webhook":"https://h.example"}]}`,
		`{"name":"d","using":{"site":{"url":"docs.example/guide/","depth":2,"pages":50,"scope":["docs.example/","https://docs.example/api%20v2"],"match":"\\.html$"}}}`,
		`{}`, `[]`, `null`, `{"name":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeSentinel(data)
		if err != nil {
			var fe FieldErrors
			if !errorsAs(err, &fe) || len(fe) == 0 {
				t.Fatalf("error %T %v, want FieldErrors", err, err)
			}
			return
		}
		printed := Print(s)
		back, err := ParseSentinel("printed", []byte(printed))
		if err != nil {
			t.Fatalf("printed form of a decoded sentinel does not parse: %v\n%s\n%s", err, data, printed)
		}
		if !equalModuloPos(s, back) {
			t.Fatalf("decode/print/parse changed the sentinel:\n%s\n%s\n%s", data, printed, Print(back))
		}
	})
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

// commentTexts returns the texts of f's comments, without trailing white
// space, sorted: the printer may move a comment but never drops one.
func commentTexts(f *File) []string {
	var out []string
	for _, c := range f.Comments {
		out = append(out, strings.TrimRight(c.Text, " \t"))
	}
	slices.Sort(out)
	return out
}

// FuzzDecodeChecked checks that decoding a stored, checked sentinel never
// panics, that the alternatives it keeps are normalised and within its
// URLs, and that they survive another round trip.
func FuzzDecodeChecked(f *testing.F) {
	for _, s := range []string{
		`{"name":"both","using":{"and":[{"url":"http://a.example"},{"url":"http://b.example"}]},"urls":["http://a.example","http://b.example"],"requires":[[1,0,1]],"start":"2003-06-01T12:00:00Z","end":"2004-06-01T12:00:00Z"}`,
		`{"name":"x","using":{"url":"http://a.example"},"urls":["http://a.example"],"requires":[[0],[0,0],[]]}`,
		`{"name":"x","using":{"url":"http://a.example"},"urls":["http://a.example"],"requires":[[0,3]]}`,
		`{"name":"x","using":{"url":"http://a.example"},"urls":[],"requires":[[-1]]}`,
		`{"name":"x","using":{"url":"http://a.example"},"requires":"no"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Checked
		if err := json.Unmarshal(data, &c); err != nil {
			return
		}
		for _, alt := range c.Requires {
			if len(alt) == 0 || !slices.IsSorted(alt) || len(slices.Compact(slices.Clone(alt))) != len(alt) {
				t.Fatalf("alternative %v is not a sorted set", alt)
			}
			for _, i := range alt {
				if i < 0 || i >= len(c.URLs) {
					t.Fatalf("alternative %v outside %d urls", alt, len(c.URLs))
				}
			}
		}
		b, err := json.Marshal(&c)
		if err != nil {
			t.Fatalf("a decoded sentinel does not encode: %v", err)
		}
		var back Checked
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("re-decoding %s: %v", b, err)
		}
		if !reflect.DeepEqual(back.Requires, c.Requires) {
			t.Fatalf("requires %v -> %v", c.Requires, back.Requires)
		}
		_ = c.Alternatives()
	})
}
