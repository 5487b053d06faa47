package spec

import (
	"encoding/json"
	"os"
	"path/filepath"
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
			// The checker must not panic on a partial tree either.
			NewChecker(now).CheckFile(file)
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
