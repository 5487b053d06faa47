package render_test

import (
	"bytes"
	"flag"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/render"
	"github.com/vigil-web/vigil/treediff"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestTextGolden checks the text view (Text, as the API's format=text and
// the dashboard's "Download: text" serve it) of the pairs in
// testdata/text: each file a txtar archive of the old version (-- old
// --), the new one (-- new --), both parsed as markup.ParseBytes tells,
// optionally the page's address (-- url --), against which a changed href
// or src is shown resolved (Annotated.AttrValue, as the dashboard shows
// it), and the view (-- text --). Run with -update to rewrite the views.
func TestTextGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "text", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			comment, sections := splitArchive(string(raw))
			old, _, err := markup.ParseBytes([]byte(sections["old"]), nil)
			if err != nil {
				t.Fatalf("old: %v", err)
			}
			nw, _, err := markup.ParseBytes([]byte(sections["new"]), nil)
			if err != nil {
				t.Fatalf("new: %v", err)
			}
			old.AssignXIDs()
			d, err := treediff.Diff(old, nw, nil)
			if err != nil {
				t.Fatal(err)
			}
			a, err := render.Annotate(old, d)
			if err != nil {
				t.Fatal(err)
			}
			url := strings.TrimSpace(sections["url"])
			if url != "" {
				a.AttrValue = resolvedAgainst(t, url)
			}
			var got bytes.Buffer
			if err := a.WriteText(&got); err != nil {
				t.Fatal(err)
			}
			if *update {
				out := comment + "-- old --\n" + sections["old"] + "-- new --\n" + sections["new"]
				if url != "" {
					out += "-- url --\n" + sections["url"]
				}
				out += "-- text --\n" + got.String()
				if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got.String() != sections["text"] {
				t.Errorf("text view of %s:\ngot\n%s\nwant\n%s(run with -update after checking the change)", file, got.String(), sections["text"])
			}
		})
	}
}

// resolvedAgainst returns an Annotated.AttrValue that shows an href or a
// src resolved against the address page, as the dashboard shows them.
func resolvedAgainst(t *testing.T, page string) func(element, attr, value string) string {
	base, err := neturl.Parse(page)
	if err != nil {
		t.Fatalf("url: %v", err)
	}
	return func(element, attr, value string) string {
		if attr != "href" && attr != "src" {
			return value
		}
		u, err := base.Parse(strings.TrimSpace(value))
		if err != nil {
			return value
		}
		return u.String()
	}
}

// splitArchive returns a txtar archive's comment and its files by name.
func splitArchive(s string) (string, map[string]string) {
	var comment string
	files := map[string]string{}
	cur := ""
	for _, line := range strings.SplitAfter(s, "\n") {
		if t := strings.TrimRight(line, "\n"); strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			cur = t[3 : len(t)-3]
			files[cur] += ""
			continue
		}
		if cur == "" {
			comment += line
		} else {
			files[cur] += line
		}
	}
	return comment, files
}
